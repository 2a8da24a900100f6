/** Codes from a cryptographic RNG, and the keyed digests that are stored instead of them. */
export interface OtpCodes {
  /** A new code of `digits` decimal digits, uniformly random. */
  generate(digits: number): string;
  /** HMAC of the code, bound to its challenge id (a digest from one challenge is useless for another). */
  digest(challengeId: string, code: string): string;
  /** Constant-time comparison of two digests. */
  equal(a: string, b: string): boolean;
}
