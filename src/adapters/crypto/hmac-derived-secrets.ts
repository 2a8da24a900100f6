import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DerivedSecrets } from '../../ports/crypto.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * HMAC-SHA256 under a key derived from the master key: nobody without the master key can compute a
 * seller's receipt key, and every instance computes the same one. Characters are drawn from the
 * HMAC's bytes by rejection sampling, like random keys (`pk_` and 43 base62 characters).
 */
export class HmacDerivedSecrets implements DerivedSecrets {
  private readonly key: Buffer;

  constructor(masterKey: Uint8Array) {
    this.key = createHmac('sha256', masterKey).update('licensing/derived-secrets/v1').digest();
  }

  receiptPublishableKey(developerId: string): string {
    return `pk_${this.base62(`receipt-publishable-key:${developerId}`, 43)}`;
  }

  phoneLinkMac(payload: string): string {
    return createHmac('sha256', this.key).update(`phone-link:${payload}`).digest('base64url');
  }

  phoneLinkValid(payload: string, mac: string): boolean {
    return sameMac(this.phoneLinkMac(payload), mac);
  }

  pageLinkMac(purpose: 'receipt' | 'card', payload: string): string {
    return createHmac('sha256', this.key).update(`${purpose}-page:${payload}`).digest('base64url');
  }

  pageLinkValid(purpose: 'receipt' | 'card', payload: string, mac: string): boolean {
    return sameMac(this.pageLinkMac(purpose, payload), mac);
  }

  private base62(label: string, length: number): string {
    let out = '';
    for (let block = 0; out.length < length; block++) {
      for (const byte of createHmac('sha256', this.key).update(`${label}:${block}`).digest()) {
        if (byte < 248 && out.length < length) out += BASE62[byte % 62];
      }
    }
    return out;
  }
}

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
