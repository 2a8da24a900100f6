import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { encodeBase64url, utf8 } from '../../src/domain/base64url.ts';
import type { Ed25519Verify, LicenseClaims } from '../../src/domain/license-key.ts';

/** A real Ed25519 key pair (node:crypto stands in for the Signer port in these pure tests). */
export function ed25519() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const verifier: Ed25519Verify = (data, signature) => verify(null, data, publicKey, signature);
  const signBytes = (data: Uint8Array) => new Uint8Array(sign(null, data, privateKey));
  return { signBytes, verifier };
}

export const CLAIMS: LicenseClaims = {
  iss: 'http://127.0.0.1:3000',
  sub: 'dev_1',
  id: 'lic_1',
  productId: 'prod_1',
  features: ['pro', 'export'],
  issuedAt: Date.UTC(2026, 0, 1),
  expiresAt: Date.UTC(2027, 0, 1),
};

export const jsonSegment = (value: unknown) => encodeBase64url(utf8.encode(JSON.stringify(value)));

/** Any header and payload, really signed: lets a test reach checks that come after the signature. */
export function craft(signBytes: (d: Uint8Array) => Uint8Array, header: unknown, payload: unknown): string {
  const input = `${jsonSegment(header)}.${jsonSegment(payload)}`;
  return `${input}.${encodeBase64url(signBytes(utf8.encode(input)))}`;
}
