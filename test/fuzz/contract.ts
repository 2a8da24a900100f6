import { expect } from 'bun:test';
import { STATUS_OF } from '../../src/adapters/http/errors.ts';
import type { Reply, TestApi } from '../support/http.ts';

/** What the OpenAPI document says of one route: its statuses (the contract table) and its body's fields. */
export interface Documented {
  statuses: number[];
  fields: string[];
}

/** Routes the document leaves out (the document itself and its viewer): 200, or 400 for a NUL in the URL as on every route. */
const UNDOCUMENTED: Record<string, Documented> = { 'GET /openapi.json': { statuses: [200, 400], fields: [] }, 'GET /docs': { statuses: [200, 400], fields: [] } };

type Operation = { responses?: Record<string, unknown>; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } };

/** Every route of the service's own OpenAPI document, keyed by the route table's names (`POST /licenses/:id/unbind`). */
export async function documentedRoutes(api: TestApi): Promise<Map<string, Documented>> {
  const doc = (await api.call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
  const routes = new Map(Object.entries(UNDOCUMENTED));
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1')}`;
      const fields = Object.values(operation.requestBody?.content ?? {}).flatMap((c) => Object.keys(c.schema?.properties ?? {}));
      routes.set(name, { statuses: Object.keys(operation.responses ?? {}).map(Number), fields: [...new Set(fields)] });
    }
  }
  return routes;
}

/**
 * Never a 5xx; only a status the route documents; every non-2xx is the contract's JSON error with a
 * snake_case code whose status is the one the error table gives it (429 with Retry-After).
 */
export function expectContractReply(reply: Reply, documented: number[], declaredLength = 0) {
  expect(reply.status).toBeLessThan(500);
  // CONTRACT.md: a body over 64 KiB is 413, on any route (a GET declaring one too).
  expect(declaredLength > 64 * 1024 ? [...documented, 413] : documented).toContain(reply.status);
  if (reply.status < 300) return;
  if (reply.status < 400) return void expect(reply.headers.get('location')).toBeTruthy();
  expect(reply.headers.get('content-type') ?? '').toStartWith('application/json');
  const { error, ...rest } = reply.body ?? {};
  expect(rest).toEqual({});
  expect(Object.keys(error ?? {}).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(error.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  expect(typeof error.message === 'string' && error.message.length > 0).toBe(true);
  if (error.details !== undefined) expect(typeof error.details === 'object' && error.details !== null).toBe(true);
  expect(STATUS_OF[error.code as keyof typeof STATUS_OF] ?? `no status for ${error.code}`).toBe(reply.status);
  if (reply.status === 429) expect(reply.headers.get('retry-after') ?? '').toMatch(/^\d+$/);
}
