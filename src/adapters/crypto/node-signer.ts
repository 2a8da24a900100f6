import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Ed25519Verify } from '../../domain/license-key.ts';
import type { Signer } from '../../ports/crypto.ts';
import { sealBytes, unsealBytes } from './aes-gcm.ts';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SEALED_VERSION = 'v1';

/**
 * Ed25519 through node:crypto with parsed KeyObjects kept in memory (parsing per call halves speed).
 * Private keys exist outside this class only sealed with AES-256-GCM under the master key.
 */
export class NodeSigner implements Signer {
  private readonly privateKeys = new Map<string, KeyObject>();
  private readonly publicKeys = new Map<string, Ed25519Verify>();

  constructor(private readonly masterKey: Uint8Array) {
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes.');
  }

  generate(): { publicKey: string; sealedPrivateKey: string } {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519_PREFIX.length);
    return { publicKey: rawPublicKey(publicKey), sealedPrivateKey: this.seal(seed) };
  }

  /** Seals a raw 32-byte Ed25519 seed (RFC 8032 "secret key"); used for imports and test vectors. */
  sealSeed(seed: Uint8Array): { publicKey: string; sealedPrivateKey: string } {
    const privateKey = seedToKey(seed);
    return { publicKey: rawPublicKey(createPublicKey(privateKey)), sealedPrivateKey: this.seal(seed) };
  }

  sign(sealedPrivateKey: string, data: Uint8Array): Uint8Array {
    let key = this.privateKeys.get(sealedPrivateKey);
    if (!key) {
      key = seedToKey(this.unseal(sealedPrivateKey));
      this.remember(this.privateKeys, sealedPrivateKey, key);
    }
    return sign(null, data, key);
  }

  verifier(publicKey: string): Ed25519Verify {
    let check = this.publicKeys.get(publicKey);
    if (!check) {
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
      check = (data, signature) => {
        try {
          return verify(null, data, key, signature);
        } catch {
          return false;
        }
      };
      this.remember(this.publicKeys, publicKey, check);
    }
    return check;
  }

  private seal(seed: Uint8Array): string {
    return sealBytes(this.masterKey, SEALED_VERSION, seed);
  }

  private unseal(sealed: string): Buffer {
    const seed = unsealBytes(this.masterKey, SEALED_VERSION, sealed);
    if (!seed) throw new Error('Unknown sealed key format.');
    return seed;
  }

  private remember<V>(cache: Map<string, V>, key: string, value: V): void {
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, value);
  }
}

function seedToKey(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function rawPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('Not an Ed25519 public key.');
  return jwk.x;
}
