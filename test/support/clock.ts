import type { Clock } from '../../src/ports/clock.ts';

/** A clock that moves only when told: expiries are tested to the millisecond, never with sleeps. */
export class FixedClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  /** Moves the clock and yields to the event loop for a moment (never the full wait). */
  async sleep(ms: number): Promise<void> {
    this.time += ms;
    await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5)));
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
