import { Elysia, t } from 'elysia';
import type { StoreHealth } from '../../system/store-health.ts';
import { errorsOf } from '../schemas.ts';

/** How long the readiness probe waits for the store before it says not ready. */
export const READY_TIMEOUT_MS = 2_000;

export interface HealthOptions {
  ping: () => Promise<boolean>;
  /** What requests learnt about the store: recent failures make the instance not ready. */
  storeHealth?: StoreHealth;
  /** True once the process is stopping: not ready, so a load balancer drains it. */
  draining?: () => boolean;
  readyTimeoutMs?: number;
}

const OK = t.Object({ status: t.Literal('ok') });

/** The ping, bounded: a store stuck behind a lock or an unreachable server is "no answer", never a hang. */
async function answersWithin(ping: () => Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([ping().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(options: HealthOptions | (() => Promise<boolean>)) {
  const { ping, storeHealth, draining, readyTimeoutMs = READY_TIMEOUT_MS } = typeof options === 'function' ? { ping: options } : options;
  const unavailable = (message: string) => ({ error: { code: 'unavailable' as const, message } });
  const ready = async (): Promise<string | null> => {
    if (draining?.()) return 'The instance is shutting down.';
    if (!(await answersWithin(ping, readyTimeoutMs))) return 'The store does not answer.';
    if (storeHealth?.failingRecently()) return 'The store failed recent requests (unreachable, full, or failing its disk).';
    storeHealth?.answered();
    return null;
  };
  const readiness: [path: string, summary: string, description: string][] = [
    ['/health', 'Readiness (same as /health/ready)', 'Kept for existing probes: answers as /health/ready does.'],
    [
      '/health/ready',
      'Readiness: send this instance traffic?',
      `200 when the store answers within ${READY_TIMEOUT_MS / 1000} s and no request failed on a store-wide fault (unreachable, disk full, I/O error) in the last 10 s (a lock or statement past its deadline leaves it ready); 503 unavailable otherwise, and from the moment the process is asked to stop (SIGTERM) for the drain period. Never hangs.`,
    ],
  ];
  const app = new Elysia({ name: 'health' });
  // Elysia registers each route on the instance: both readiness paths answer alike.
  for (const [path, summary, description] of readiness) {
    app.get(
      path,
      async ({ status, set }) => {
        const problem = await ready();
        if (problem === null) return { status: 'ok' as const };
        set.headers['retry-after'] = '2';
        return status(503, unavailable(problem));
      },
      { response: { 200: OK, ...errorsOf(503) }, detail: { tags: ['Service'], summary, description, security: [] } },
    );
  }
  return app
    .get('/health/live', () => ({ status: 'ok' as const }), {
      response: { 200: OK },
      detail: {
        tags: ['Service'],
        summary: 'Liveness: the process is up',
        description: 'Always 200 while the process serves HTTP; it touches no store. Restart the process only when this fails.',
        security: [],
      },
    });
}
