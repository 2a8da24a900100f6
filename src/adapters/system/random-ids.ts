import { randomBytes } from 'node:crypto';
import type { Ids } from '../../ports/ids.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Rejection sampling keeps every character uniformly distributed. */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const randomIds: Ids = {
  next: (prefix) => `${prefix}_${base62(22)}`,
  secret: (prefix) => `${prefix}${base62(43)}`,
};
