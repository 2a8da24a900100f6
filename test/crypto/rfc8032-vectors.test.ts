import { describe, expect, test } from 'bun:test';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { NodeSigner } from '../../src/adapters/crypto/node-signer.ts';

/** RFC 8032 §7.1, Ed25519. Each vector is also cross-checked against node:crypto below. */
const VECTORS = [
  {
    name: 'TEST 1 (empty message)',
    secretKey: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    name: 'TEST 2 (1-byte message)',
    secretKey: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    name: 'TEST 3 (2-byte message)',
    secretKey: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    publicKey: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
  {
    name: 'TEST SHA(abc) (64-byte message)',
    secretKey: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
    publicKey: 'ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf',
    message:
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    signature:
      'dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704',
  },
];

const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

describe('the vectors themselves are right (cross-checked, not taken from memory)', () => {
  test('the SHA(abc) message is SHA-512 of "abc"', () => {
    expect(createHash('sha512').update('abc').digest('hex')).toBe(VECTORS[3]!.message);
  });

  test.each(VECTORS)('node:crypto signs $name to the vector signature (Ed25519 is deterministic)', (v) => {
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, hex(v.secretKey)]), format: 'der', type: 'pkcs8' });
    expect(sign(null, hex(v.message), privateKey).toString('hex')).toBe(v.signature);
  });
});

describe('NodeSigner passes RFC 8032 §7.1 Ed25519 test vectors', () => {
  const signer = new NodeSigner(new Uint8Array(32).fill(9));

  test.each(VECTORS)('$name: the public key derived from the secret key', (v) => {
    const { publicKey } = signer.sealSeed(hex(v.secretKey));
    expect(toHex(new Uint8Array(Buffer.from(publicKey, 'base64url')))).toBe(v.publicKey);
  });

  test.each(VECTORS)('$name: the signature bytes', (v) => {
    const { sealedPrivateKey } = signer.sealSeed(hex(v.secretKey));
    expect(toHex(signer.sign(sealedPrivateKey, hex(v.message)))).toBe(v.signature);
  });

  test.each(VECTORS)('$name: the verifier accepts the vector signature', (v) => {
    const verify = signer.verifier(Buffer.from(hex(v.publicKey)).toString('base64url'));
    expect(verify(hex(v.message), hex(v.signature))).toBe(true);
  });

  test.each(VECTORS)('$name: the verifier rejects the signature with any one bit flipped', (v) => {
    const verify = signer.verifier(Buffer.from(hex(v.publicKey)).toString('base64url'));
    for (const index of [0, 31, 32, 63]) {
      const flipped = hex(v.signature);
      flipped[index]! ^= 0x01;
      expect(verify(hex(v.message), flipped)).toBe(false);
    }
  });

  test.each(VECTORS)('$name: the verifier rejects a changed message', (v) => {
    const verify = signer.verifier(Buffer.from(hex(v.publicKey)).toString('base64url'));
    const message = new Uint8Array([...hex(v.message), 0x00]);
    expect(verify(message, hex(v.signature))).toBe(false);
  });
});
