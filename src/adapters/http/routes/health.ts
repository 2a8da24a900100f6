import { Elysia, t } from 'elysia';
import { errorsOf } from '../schemas.ts';

export function healthRoutes(ping: () => Promise<boolean>) {
  return new Elysia({ name: 'health' }).get(
    '/health',
    async ({ status }) =>
      (await ping()) ? { status: 'ok' as const } : status(503, { error: { code: 'unavailable', message: 'The store does not answer.' } }),
    {
      response: { 200: t.Object({ status: t.Literal('ok') }), ...errorsOf(503) },
      detail: { tags: ['Service'], summary: 'Liveness and store health', security: [] },
    },
  );
}
