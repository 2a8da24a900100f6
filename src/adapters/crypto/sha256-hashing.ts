import { timingSafeEqual } from 'node:crypto';
import type { Hashing } from '../../ports/crypto.ts';

/** SHA-256 suits high-entropy secrets (API keys, license keys): no password stretching needed. */
export const sha256Hashing: Hashing = {
  // Bun's one-shot hasher: half the cost of node:crypto's createHash on the validation hot path.
  hash: (secret) => Bun.CryptoHasher.hash('sha256', secret, 'base64url'),
  equal: (a, b) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  },
};
