/** Answered to a read that sat behind statements stuck on a lock; the HTTP adapter answers it 503 unavailable. */
export class StuckBehindLockError extends Error {
  readonly code = 'ERR_STUCK_BEHIND_LOCK';
  constructor(budgetMs: number) {
    super(`A read waited ${budgetMs} ms while statements on the pool were stuck behind a lock.`);
    this.name = 'StuckBehindLockError';
  }
}

/** A read in flight that may be answered early: its caller's rejection and when it may be. */
export interface InFlightRead {
  /** performance.now() past which, during an episode, it is answered with StuckBehindLockError. */
  deadline: number;
  abandon: (error: Error) => void;
}

/** A lock or a statement past its deadline (PostgreSQL's lock_timeout, statement_timeout). */
const STUCK = new Set(['55P03', '57014']);

function isStuck(error: unknown): boolean {
  for (let e = error as { errno?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as typeof e, depth++) {
    if (typeof e.errno === 'string' && STUCK.has(e.errno)) return true;
  }
  return false;
}

/**
 * Bun's SQL pipelines several statements on one connection, and PostgreSQL runs them in turn: behind
 * a table lock, the fourth statement on a connection waits for the three before it to reach their
 * lock_timeout, then for its own (10 s at the 2 s default, where one statement alone takes 2 s).
 *
 * So from the moment a statement on the pool fails on a lock or statement deadline (an episode,
 * which lasts `budgetMs` past the last such failure), a READ still unanswered `budgetMs` after it
 * was asked is answered StuckBehindLockError: its caller learns what its own wait would have told
 * it, in the time one wait takes. The statement itself is left to end on the server (its slot on
 * the gate is held until then, so nothing piles up). Writes are never answered early: one that
 * still commits must not have been told it failed. Outside an episode nothing changes: a slow read
 * runs to its statement_timeout.
 */
export class LockEpisode {
  /** In the order they were asked, so in the order of their deadlines. */
  private readonly reads = new Set<InFlightRead>();
  private until = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;

  constructor(readonly budgetMs: number) {}

  watch(read: InFlightRead): void {
    this.reads.add(read);
    // During an episode, a read admitted late (it waited for a slot) may be due already, or before the sweep.
    if (performance.now() <= this.until && read.deadline < this.timerAt) this.sweep();
  }

  settled(read: InFlightRead): void {
    this.reads.delete(read);
  }

  /** Every failed statement passes here: a lock or statement deadline opens or prolongs an episode. */
  failed(error: unknown): void {
    if (!isStuck(error)) return;
    this.until = performance.now() + this.budgetMs;
    this.sweep();
  }

  private sweep(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now();
    if (now > this.until) return;
    let next = this.until;
    for (const read of this.reads) {
      if (read.deadline > now) {
        next = Math.min(next, read.deadline);
        break;
      }
      this.reads.delete(read);
      read.abandon(new StuckBehindLockError(this.budgetMs));
    }
    this.timerAt = next;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, next - now) + 1);
    this.timer.unref?.();
  }
}
