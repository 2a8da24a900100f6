/** What one counted request learned about its key's current window. */
export interface RateLimitVerdict {
  /** This hit is within the limit. */
  allowed: boolean;
  /** Seconds until the window that refused this hit ends (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
  /** Hits the window still accepts after this one. */
  remaining: number;
}

/**
 * Fixed-window counters: time is cut into windows of `windowMs` aligned on the epoch
 * (`[k·windowMs, (k+1)·windowMs)`), each hit adds one to its key's current window, atomically,
 * and the hits numbered 1…limit are allowed. A burst straddling a boundary may therefore pass up to
 * twice the limit within one window's length. Adapters read the time from the Clock port; keys are
 * namespaced by the caller (`validate:license:<id>`, `signup:address:<address>`, …), each used with one window length.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitVerdict>;
}
