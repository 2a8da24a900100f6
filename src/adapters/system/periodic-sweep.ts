import type { SweepReport } from '../../app/maintenance/sweep.ts';
import type { Logger } from './logger.ts';

export interface PeriodicSweepOptions {
  /** Between runs, give or take a tenth (jitter, so instances started together drift apart). */
  everyMs: number;
  /** The first run comes this long after start, at most (a random share of it). */
  firstWithinMs?: number;
  random?: () => number;
}

export interface PeriodicSweep {
  /** No further run starts; resolves once a run under way has finished. */
  stop(): Promise<void>;
}

/**
 * Runs the retention sweep on a timer in every instance: the sweep is idempotent, so instances need
 * no coordination, and the jitter spreads their runs. A failed run is logged and retried next time.
 */
export function startPeriodicSweep(sweep: () => Promise<SweepReport>, log: Logger, options: PeriodicSweepOptions, counted?: (outcome: 'ok' | 'failed') => void): PeriodicSweep {
  const random = options.random ?? Math.random;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const runOnce = async () => {
    try {
      const report = await sweep();
      const deleted = Object.values(report).reduce((a, b) => a + b, 0);
      if (deleted > 0) log.info('retention sweep', report);
      counted?.('ok');
    } catch (error) {
      // The first line only: a failed query's later lines carry its parameters.
      counted?.('failed');
      log.warn('retention sweep failed; retried at the next run', { error: String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200) });
    }
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce().then(() => schedule(options.everyMs * (0.9 + 0.2 * random())));
    }, delayMs);
    timer.unref?.();
  };
  schedule(random() * (options.firstWithinMs ?? options.everyMs));
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
