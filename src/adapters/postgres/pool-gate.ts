import type { SQL } from 'bun';

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

/**
 * At most `capacity` statements and transactions in flight on the pool; the next waits in line for
 * at most `waitMs`, then fails. Bun's SQL queues without limit: behind a lock, every request would
 * wait for a connection for as long as the lock is held, and requests pile up by the thousand.
 */
export class PoolGate {
  private inFlight = 0;
  private readonly waiting: { admit: () => void; timer: ReturnType<typeof setTimeout> }[] = [];

  constructor(
    private readonly capacity: number,
    private readonly waitMs: number,
  ) {}

  /** Statements and transactions holding a slot now, and those waiting in line for one (the metrics' gauges). */
  usage(): PoolUsage {
    return { inUse: this.inFlight, waiting: this.waiting.length };
  }

  async run<T>(work: () => PromiseLike<T>): Promise<T> {
    if (this.inFlight >= this.capacity) await this.wait();
    else this.inFlight++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.admit(); // the slot passes straight to it
      } else {
        this.inFlight--;
      }
    }
  }

  private wait(): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = {
        admit: resolve,
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new PoolWaitTimeoutError(this.waitMs));
        }, this.waitMs),
      };
      this.waiting.push(entry);
    });
  }
}

/**
 * The pool as drizzle and the repositories use it (`unsafe`, `unsafe().values()`, `begin`), each
 * call going through the gate. Bun's queries are lazy: nothing is sent before they are awaited,
 * so a query made here and run inside the gate is sent only once admitted.
 */
export function gated(sql: SQL, gate: PoolGate): SQL {
  return new Proxy(sql, {
    get(target, property) {
      if (property === 'unsafe') {
        return (query: string, params?: unknown[]) => {
          const once = (values: boolean) => ({
            then<A, B>(ok?: (value: unknown) => A | PromiseLike<A>, fail?: (error: unknown) => B | PromiseLike<B>) {
              return gate.run(() => (values ? target.unsafe(query, params).values() : target.unsafe(query, params))).then(ok, fail);
            },
          });
          return Object.assign(once(false), { values: () => once(true) });
        };
      }
      if (property === 'begin') return (...args: unknown[]) => gate.run(() => (target.begin as (...a: unknown[]) => Promise<unknown>)(...args));
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
