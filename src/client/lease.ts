import { signedCall, storedKey, unverified, type HolderContext, type Signed } from './activations.ts';
import { ApiError } from './errors.ts';

/**
 * Floating leases (docs/leases.md): a seat of the license held while the program runs, kept by
 * heartbeats at half its period (with jitter), given back by release() or on the process's exit.
 */
export interface LeaseOptions {
  /** Borrow for offline use: hours, up to the license's maxBorrowHours. No heartbeats; the answer carries a signed token. */
  borrowHours?: number;
  /**
   * Told of every failure of a heartbeat (network, 5xx, a seat lost to another machine). The timer
   * never throws: the lease is kept and tried again until it ends.
   */
  onError?: (error: Error) => void;
  /** Release on SIGINT, SIGTERM and beforeExit where there is a `process` (default true; false for a borrowed lease, which outlives the process by design). */
  releaseOnExit?: boolean;
  /** Schedules the next heartbeat (default: an unref'd setTimeout, so it never keeps a process alive). */
  schedule?: (run: () => void, ms: number) => { cancel(): void };
  /** 0 ≤ x < 1; the jitter (default Math.random). */
  random?: () => number;
}

export interface HeldLease {
  readonly id: string;
  /** When the seat is freed without a heartbeat (ms since the epoch, the server's clock). */
  readonly expiresAt: number;
  /** A borrowed lease's signed token (compact JWS), for offline checks until expiresAt. */
  readonly token: string | undefined;
  /** True once released (or the process is exiting). */
  readonly ended: boolean;
  /**
   * Gives the seat back; true when the service freed it now, false when it was already gone or is
   * borrowed (a borrowed seat stays taken until its token's expiresAt: 409 lease_borrowed). Idempotent.
   */
  release(): Promise<boolean>;
}

type LeaseAnswer = { id: string; expiresAt: number; token: string | undefined; periodMs: number };

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** A heartbeat that failed is tried again at least this soon, and never sooner than this. */
const RETRY_MIN_MS = 1_000;

function leaseOf(ctx: HolderContext, answer: Signed): LeaseAnswer {
  const body = answer.body as { lease?: { id?: unknown; expiresAt?: unknown; machineFingerprint?: unknown }; token?: unknown } | null;
  const lease = body?.lease;
  if (typeof lease?.id !== 'string' || typeof lease.expiresAt !== 'number' || lease.machineFingerprint !== ctx.fingerprint)
    throw unverified(answer.status, 'The signed answer is not this machine’s lease.');
  const token = typeof body?.token === 'string' ? body.token : undefined;
  return { id: lease.id, expiresAt: lease.expiresAt, token, periodMs: Math.max(0, lease.expiresAt - answer.serverTime) };
}

async function checkout(ctx: HolderContext, licenseKey: string, borrowHours: number | undefined): Promise<LeaseAnswer> {
  const body = { licenseKey, machineFingerprint: ctx.fingerprint, ...(borrowHours ? { borrowHours } : {}) };
  return leaseOf(ctx, await signedCall(ctx, 'lease', body, ctx.fingerprint, '/licenses/leases'));
}

function defaultSchedule(run: () => void, ms: number): { cancel(): void } {
  const timer = setTimeout(run, ms) as unknown as { unref?: () => void };
  timer.unref?.();
  return { cancel: () => clearTimeout(timer as never) };
}

/** Checks a lease out (throws ApiError: 409 lease_limit when full) and keeps it until release() or exit. */
export async function holdLease(ctx: HolderContext, options: LeaseOptions = {}): Promise<HeldLease> {
  const { licenseKey } = await storedKey(ctx);
  const first = await checkout(ctx, licenseKey, options.borrowHours);
  return new LeaseKeeper(ctx, licenseKey, first, options);
}

class LeaseKeeper implements HeldLease {
  ended = false;
  private timer: { cancel(): void } | null = null;
  private readonly exitHandlers: [string, () => void][] = [];
  private readonly schedule;
  private readonly random;

  constructor(
    private readonly ctx: HolderContext,
    private readonly licenseKey: string,
    private current: LeaseAnswer,
    private readonly options: LeaseOptions,
  ) {
    this.schedule = options.schedule ?? defaultSchedule;
    this.random = options.random ?? Math.random;
    if (!options.borrowHours) this.next(this.heartbeatDelay());
    if (options.releaseOnExit ?? !options.borrowHours) this.watchExit();
  }

  get id() {
    return this.current.id;
  }
  get expiresAt() {
    return this.current.expiresAt;
  }
  get token() {
    return this.current.token;
  }

  /** Half the period, less up to a tenth of it: many clients started together do not beat together. */
  private heartbeatDelay(): number {
    return Math.max(RETRY_MIN_MS, (this.current.periodMs / 2) * (1 - 0.2 * this.random()));
  }

  private next(ms: number): void {
    if (this.ended) return;
    this.timer = this.schedule(() => void this.beat(), ms);
  }

  /** One heartbeat; never throws. A lease that expired (410) is checked out again under a new id. */
  private async beat(): Promise<void> {
    if (this.ended) return;
    try {
      const answer = await signedCall(this.ctx, 'lease_heartbeat', { licenseKey: this.licenseKey }, this.ctx.fingerprint, `/licenses/leases/${encodeURIComponent(this.current.id)}/heartbeat`);
      this.current = { ...leaseOf(this.ctx, answer), token: this.current.token };
      this.next(this.heartbeatDelay());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'lease_expired') return this.checkoutAgain(error);
      this.report(error);
      this.next(Math.max(RETRY_MIN_MS, this.heartbeatDelay() / 4));
    }
  }

  private async checkoutAgain(expired: ApiError): Promise<void> {
    this.report(expired);
    try {
      if (!this.ended) this.current = await checkout(this.ctx, this.licenseKey, undefined);
      this.next(this.heartbeatDelay());
    } catch (error) {
      this.report(error);
      this.next(Math.max(RETRY_MIN_MS, this.heartbeatDelay() / 4));
    }
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onError must not stop the heartbeats.
    }
  }

  release(): Promise<boolean> {
    if (this.releasing) return this.releasing;
    this.ended = true;
    this.timer?.cancel();
    this.unwatchExit();
    this.releasing = signedCall(this.ctx, 'lease_release', { licenseKey: this.licenseKey }, undefined, `/licenses/leases/${encodeURIComponent(this.current.id)}/release`).then(
      (answer) => (answer.body as { released?: unknown } | null)?.released === true,
      // A borrowed lease cannot be given back before its end (its token works offline until then): nothing was freed.
      (error: unknown) => {
        if (error instanceof ApiError && error.code === 'lease_borrowed') return false;
        throw error;
      },
    );
    return this.releasing;
  }

  private releasing: Promise<boolean> | null = null;

  private watchExit(): void {
    const proc = (globalThis as { process?: NodeJS.Process }).process;
    if (!proc?.once) return;
    for (const signal of EXIT_SIGNALS) {
      const handler = () => {
        // Released first, then the signal is raised again with no handler of ours: the default (exit) follows.
        void this.release().catch(() => false).finally(() => {
          if (proc.listenerCount(signal) === 0) proc.kill(proc.pid, signal);
        });
      };
      proc.once(signal, handler);
      this.exitHandlers.push([signal, handler]);
    }
    const beforeExit = () => void this.release().catch(() => false);
    proc.once('beforeExit', beforeExit);
    this.exitHandlers.push(['beforeExit', beforeExit]);
  }

  private unwatchExit(): void {
    const proc = (globalThis as { process?: NodeJS.Process }).process;
    for (const [event, handler] of this.exitHandlers.splice(0)) proc?.removeListener(event, handler);
  }
}
