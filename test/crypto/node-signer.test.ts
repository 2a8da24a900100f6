import { describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { NodeSigner } from '../../src/adapters/crypto/node-signer.ts';

const masterKey = () => new Uint8Array(randomBytes(32));
const MESSAGE = new TextEncoder().encode('header.payload');
const SEED = new Uint8Array(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));

/** Every way the seed could show up in a string if it leaked unencrypted. */
function seedSpellings(seed: Uint8Array): string[] {
  const b = Buffer.from(seed);
  const half = b.subarray(0, 16);
  return [b.toString('hex'), b.toString('base64'), b.toString('base64url'), half.toString('hex'), half.toString('base64url').slice(0, 20)];
}

function decodedParts(sealed: string): Buffer[] {
  return sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
}

describe('sealed private keys', () => {
  test('a sealed key is not the raw seed: no spelling of the seed appears in it', () => {
    const { sealedPrivateKey } = new NodeSigner(masterKey()).sealSeed(SEED);
    for (const spelling of seedSpellings(SEED)) expect(sealedPrivateKey.toLowerCase()).not.toContain(spelling.toLowerCase());
  });

  test('the seed bytes do not appear in any decoded part of the sealed key', () => {
    const { sealedPrivateKey } = new NodeSigner(masterKey()).sealSeed(SEED);
    for (const part of decodedParts(sealedPrivateKey)) expect(part.includes(Buffer.from(SEED))).toBe(false);
  });

  test('sealing the same seed twice gives different strings (fresh IV), both usable', () => {
    const signer = new NodeSigner(masterKey());
    const a = signer.sealSeed(SEED);
    const b = signer.sealSeed(SEED);
    expect(a.sealedPrivateKey).not.toBe(b.sealedPrivateKey);
    expect(signer.sign(a.sealedPrivateKey, MESSAGE)).toEqual(signer.sign(b.sealedPrivateKey, MESSAGE));
  });

  test('a generated key pair signs what its public key verifies', () => {
    const signer = new NodeSigner(masterKey());
    const { publicKey, sealedPrivateKey } = signer.generate();
    expect(Buffer.from(publicKey, 'base64url').length).toBe(32);
    expect(signer.verifier(publicKey)(MESSAGE, signer.sign(sealedPrivateKey, MESSAGE))).toBe(true);
  });

  test('a generated key is sealed too: its sealed form is not 32 raw bytes', () => {
    const { sealedPrivateKey } = new NodeSigner(masterKey()).generate();
    expect(sealedPrivateKey.startsWith('v1.')).toBe(true);
    expect(Buffer.from(sealedPrivateKey.split('.')[2]!, 'base64url').length).toBe(32 + 16);
  });

  test('a signer with a different master key cannot sign with another signer’s sealed key', () => {
    const { sealedPrivateKey } = new NodeSigner(masterKey()).generate();
    expect(() => new NodeSigner(masterKey()).sign(sealedPrivateKey, MESSAGE)).toThrow();
  });

  test('a new signer with the same master key (a restart) can sign with a key sealed before', () => {
    const key = masterKey();
    const { publicKey, sealedPrivateKey } = new NodeSigner(key).generate();
    const restarted = new NodeSigner(new Uint8Array(key));
    expect(restarted.verifier(publicKey)(MESSAGE, restarted.sign(sealedPrivateKey, MESSAGE))).toBe(true);
  });

  test('a tampered sealed key is refused (AES-GCM authenticates it)', () => {
    const signer = new NodeSigner(masterKey());
    const { sealedPrivateKey } = signer.generate();
    const [version, iv, body] = sealedPrivateKey.split('.') as [string, string, string];
    const bytes = Buffer.from(body, 'base64url');
    bytes[0]! ^= 0x01;
    expect(() => signer.sign(`${version}.${iv}.${bytes.toString('base64url')}`, MESSAGE)).toThrow();
  });

  test('an unknown sealed format is refused', () => {
    const signer = new NodeSigner(masterKey());
    expect(() => signer.sign('v0.abc.def', MESSAGE)).toThrow();
    expect(() => signer.sign('not-sealed', MESSAGE)).toThrow();
  });

  test('a master key that is not 32 bytes is refused at construction', () => {
    expect(() => new NodeSigner(new Uint8Array(16))).toThrow();
    expect(() => new NodeSigner(new Uint8Array(33))).toThrow();
  });
});

describe('verifier', () => {
  const signer = new NodeSigner(masterKey());
  const { publicKey, sealedPrivateKey } = signer.generate();
  const signature = signer.sign(sealedPrivateKey, MESSAGE);

  test('another key pair’s public key does not verify the signature', () => {
    expect(signer.verifier(signer.generate().publicKey)(MESSAGE, signature)).toBe(false);
  });

  test('a signature of the wrong length is false, not an exception', () => {
    const verify = signer.verifier(publicKey);
    expect(verify(MESSAGE, signature.subarray(0, 63))).toBe(false);
    expect(verify(MESSAGE, new Uint8Array(0))).toBe(false);
    expect(verify(MESSAGE, new Uint8Array([...signature, 0]))).toBe(false);
  });
});
