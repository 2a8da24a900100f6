export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
}
