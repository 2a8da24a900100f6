import { createHash, timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import { errorResponse } from '../errors.ts';

export interface MetricsPage {
  contentType(): string;
  text(): Promise<string>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics (outside /v1, where Prometheus looks): the Prometheus text page, for
 * `Authorization: Bearer <METRICS_TOKEN>` only; compared in constant time (as digests, so the
 * token's length is not told either). Mounted only when METRICS_TOKEN is set: otherwise a 404.
 */
export function metricsRoutes(page: MetricsPage, token: string) {
  const expected = digest(token);
  return new Elysia({ name: 'metrics' }).get(
    '/metrics',
    async ({ request }) => {
      const header = request.headers.get('authorization') ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!timingSafeEqual(digest(given), expected)) {
        const refused = errorResponse(401, 'unauthorized', 'The metrics page needs Authorization: Bearer <METRICS_TOKEN>.');
        refused.headers.set('www-authenticate', 'Bearer');
        return refused;
      }
      return new Response(await page.text(), { headers: { 'content-type': page.contentType(), 'cache-control': 'no-store' } });
    },
    { detail: { hide: true } },
  );
}
