import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { ownerHeaders, routeTable, usesCustomer, world } from '../http/fixtures.ts';

/**
 * Counterexamples the fuzz found, kept as plain tests. A JSON array nested 20,000 deep is 40 KB,
 * well under the 64 KiB limit; in a field that must be a string (or a list of strings), Elysia's
 * validation error stringifies the value recursively to build its summary and overflows the stack.
 */

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Each route's string fields (or lists of strings), from its valid body. */
function stringFields(body: Record<string, unknown>): string[] {
  return Object.entries(body)
    .filter(([, value]) => typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string')))
    .map(([field]) => field);
}

const routesWithBodies = routeTable(await world(testApi())).filter((r) => r.body);

describe('a string field holding an array nested 20,000 deep (a 40 KB body)', () => {
  test.each(routesWithBodies.map((r) => [r.name]))('%s: 400 invalid_request in every such field, never a 500', async (name) => {
    const w = await world(testApi(), { customer: usesCustomer(name) });
    const route = routeTable(w).find((r) => r.name === name)!;
    const answers: Record<string, string> = {};

    for (const field of stringFields(route.body!())) {
      const { [field]: _, ...rest } = route.body!();
      const rawBody = JSON.stringify(rest).replace(/^\{/, `{${JSON.stringify(field)}:${deepArray(20_000)}${Object.keys(rest).length ? ',' : ''}`);
      const reply = await w.api.call(route.method, route.path(), { rawBody, headers: ownerHeaders(w, route) });
      answers[field] = `${reply.status} ${reply.body?.error?.code}`;
    }

    expect(answers).toEqual(Object.fromEntries(stringFields(route.body!()).map((field) => [field, '400 invalid_request'])));
  });
});
