import type { SQL } from 'bun';
import type { InFlightRead, LockEpisode } from './lock-episode.ts';

/** Thrown when no connection frees up in time; the HTTP adapter answers it 503 unavailable. */
export class PoolWaitTimeoutError extends Error {
  readonly code = 'ERR_POOL_WAIT_TIMEOUT';
  constructor(waitMs: number) {
    super(`No database connection became free within ${waitMs} ms.`);
    this.name = 'PoolWaitTimeoutError';
  }
}

export interface PoolUsage {
  inUse: number;
  waiting: number;
}

interface Waiter {
  admit: () => void;
  refuse: (error: Error) => void;
  /** performance.now() past which it gives up. */
  deadline: number;
}

/**
 * At most `capacity` statements and transactions in flight on the pool; the next waits in line for
 * at most `waitMs`, then fails. Bun's SQL queues without limit: behind a lock, every request would
 * wait for a connection for as long as the lock is held, and requests pile up by the thousand.
 *
 * The line is first come, first served, so its head always has the nearest deadline: one timer, set
 * for the head, serves the whole line (a timer per waiter cost a statement more than the gate itself).
 */
export class PoolGate {
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly capacity: number,
    private readonly waitMs: number,
    /** Reads answered early while statements are stuck behind a lock (lock-episode.ts); none without it. */
    private readonly episode?: LockEpisode,
  ) {}

  /** Statements and transactions holding a slot now, and those waiting in line for one (the metrics' gauges). */
  usage(): PoolUsage {
    return { inUse: this.inFlight, waiting: this.waiting.length };
  }

  /** `read`: the work only reads, so it may be answered early behind a lock (lock-episode.ts). */
  run<T>(work: () => PromiseLike<T>, read = false): Promise<T> {
    const askedAt = read && this.episode ? performance.now() : 0;
    if (this.inFlight < this.capacity) {
      this.inFlight++;
      return this.hold(work, askedAt);
    }
    return this.wait().then(() => this.hold(work, askedAt));
  }

  /**
   * Runs `work` on a slot already taken, and gives the slot up however it ends (one promise, no more:
   * this is every statement's path). A read (askedAt > 0) may be answered before it ends; its slot is
   * still given up only when it does.
   */
  private hold<T>(work: () => PromiseLike<T>, askedAt: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let running: PromiseLike<T>;
      try {
        running = work();
      } catch (error) {
        this.leave();
        reject(error);
        return;
      }
      const episode = this.episode;
      const read: InFlightRead | null = episode && askedAt > 0 ? { deadline: askedAt + episode.budgetMs, abandon: reject } : null;
      if (read) episode!.watch(read);
      running.then(
        (value) => {
          this.leave();
          if (read) episode!.settled(read);
          resolve(value);
        },
        (error: unknown) => {
          this.leave();
          if (read) episode!.settled(read);
          episode?.failed(error);
          reject(error);
        },
      );
    });
  }

  /** A slot given up: it passes straight to the head of the line, if anyone waits. */
  private leave(): void {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.inFlight--;
  }

  private wait(): Promise<void> {
    return new Promise((admit, refuse) => {
      this.waiting.push({ admit, refuse, deadline: performance.now() + this.waitMs });
      if (this.timer === null) this.arm();
    });
  }

  /** The timer for the head of the line; when it fires, every waiter past its deadline is refused. */
  private arm(): void {
    const head = this.waiting[0];
    if (!head) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = performance.now();
      while (this.waiting.length > 0 && this.waiting[0]!.deadline <= now) this.waiting.shift()!.refuse(new PoolWaitTimeoutError(this.waitMs));
      this.arm();
    }, Math.max(0, head.deadline - performance.now()));
  }
}

/**
 * The pool as drizzle and the repositories use it (`unsafe`, `unsafe().values()`, `begin`), each
 * call going through the gate. Bun's queries are lazy: nothing is sent before they are awaited,
 * so a query made here and run inside the gate is sent only once admitted.
 */
export function gated(sql: SQL, gate: PoolGate): SQL {
  const unsafe = (query: string, params?: unknown[]) => new GatedQuery(gate, sql, query, params, false);
  const begin = (...args: unknown[]) => gate.run(() => (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args));
  return new Proxy(sql, {
    get(target, property) {
      if (property === 'unsafe') return unsafe;
      if (property === 'begin') return begin;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A statement outside a transaction that only reads (drizzle writes its SELECTs so; a CTE may write, so it is not one). */
const READ = /^\s*select\s/i;

/** `sql.unsafe(query, params)` and its `.values()`, sent once the gate admits it. */
class GatedQuery {
  constructor(
    private readonly gate: PoolGate,
    private readonly sql: SQL,
    private readonly query: string,
    private readonly params: unknown[] | undefined,
    private readonly asValues: boolean,
  ) {}

  values(): GatedQuery {
    return new GatedQuery(this.gate, this.sql, this.query, this.params, true);
  }

  then<A, B>(ok?: (value: unknown) => A | PromiseLike<A>, fail?: (error: unknown) => B | PromiseLike<B>): Promise<A | B> {
    return this.gate.run(() => this.send(), READ.test(this.query)).then(ok, fail);
  }

  private send(): PromiseLike<unknown> {
    const query = this.sql.unsafe(this.query, this.params);
    return this.asValues ? query.values() : query;
  }
}
