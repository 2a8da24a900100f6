import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM under a 32-byte key, as `<version>.<iv>.<ciphertext and tag>` (base64url): how every
 * secret kept at rest is sealed. The version names the format and the key's purpose.
 */
export function sealBytes(key: Uint8Array, version: string, bytes: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
  return `${version}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The bytes sealBytes sealed, or null when `sealed` is not of this version (the tag is checked: tampering throws). */
export function unsealBytes(key: Uint8Array, version: string, sealed: string): Buffer | null {
  const [prefix, iv, body] = sealed.split('.');
  if (prefix !== version || !iv || !body) return null;
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
}

/** A key of its own purpose derived from the 32-byte master key, so what one purpose sealed is never opened as another's. */
export function purposeKey(masterKey: Uint8Array, purpose: string): Buffer {
  if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes.');
  return createHmac('sha256', masterKey).update(purpose).digest();
}
