import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { OtpCodes } from '../../ports/otp-codes.ts';

/**
 * Codes from node:crypto's CSPRNG (randomInt is unbiased), stored as HMAC-SHA256 under a key derived
 * from the master key: a stolen database does not give the codes away, even by trying all 10⁶.
 */
export class HmacOtpCodes implements OtpCodes {
  private readonly key: Buffer;

  constructor(masterKey: Uint8Array) {
    this.key = createHmac('sha256', masterKey).update('licensing/otp-codes/v1').digest();
  }

  generate(digits: number): string {
    let code = '';
    for (let i = 0; i < digits; i++) code += randomInt(10).toString();
    return code;
  }

  digest(challengeId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${challengeId}:${code}`).digest('base64url');
  }

  equal(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
