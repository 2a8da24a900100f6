export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
  /** Waits (a fixed clock returns at once). */
  sleep(ms: number): Promise<void>;
}
