import type { LastSeenRecorder } from '../../ports/last-seen.ts';
import type { LicenseRepository, SeenMachine } from '../../ports/license-repository.ts';
import { describeError } from './describe-error.ts';
import type { Logger } from './logger.ts';

export interface LastSeenBatchOptions {
  /** How long a sighting waits at most before it is written (the crash window). */
  everyMs: number;
  /** A batch this large is written at once, without waiting for the timer. */
  maxPending?: number;
}

/**
 * lastSeenAt written behind the answers: a validation only notes the machine in memory (the latest
 * time per license and fingerprint), and one write per `everyMs` (one transaction on SQLite, one
 * statement per 1,000 machines on PostgreSQL) records all of them. The timer runs only while
 * something waits. `stop()` writes what is left, so a graceful shutdown loses nothing; a crash
 * loses at most the last `everyMs` of sightings, and lastSeenAt then shows an earlier time (it moves
 * at most once an hour anyway). A failed write is kept for the next one, up to `maxPending` × 4.
 */
export class LastSeenBatch implements LastSeenRecorder {
  private pending = new Map<string, SeenMachine>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> | null = null;
  private readonly maxPending: number;

  constructor(
    private readonly licenses: Pick<LicenseRepository, 'touchActivations'>,
    private readonly log: Logger,
    private readonly options: LastSeenBatchOptions,
  ) {
    this.maxPending = options.maxPending ?? 10_000;
  }

  seen(machine: SeenMachine): void {
    this.note(machine);
    if (this.pending.size >= this.maxPending) void this.flush();
    else this.arm();
  }

  /** Machines noted and not yet written. */
  get size(): number {
    return this.pending.size;
  }

  /** Writes everything noted so far (after a write already under way). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.write(batch).finally(() => {
      this.writing = null;
    });
    await this.writing;
  }

  /** Graceful shutdown: the last batch is written (one retry after a failure). */
  async stop(): Promise<void> {
    await this.flush();
    if (this.pending.size > 0) await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async write(batch: SeenMachine[]): Promise<void> {
    try {
      await this.licenses.touchActivations(batch);
    } catch (error) {
      const kept = this.pending.size + batch.length <= this.maxPending * 4;
      this.log.warn('lastSeenAt not written', { machines: batch.length, kept, ...describeError(error) });
      if (!kept) return;
      for (const machine of batch) this.note(machine);
      this.arm();
    }
  }

  private note(machine: SeenMachine): void {
    const key = `${machine.licenseId}\n${machine.machineFingerprint}`;
    const before = this.pending.get(key);
    if (!before || before.at < machine.at) this.pending.set(key, machine);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.options.everyMs);
    this.timer.unref?.();
  }
}
