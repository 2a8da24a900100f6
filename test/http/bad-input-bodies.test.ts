import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { expectError, expectHandled, ownerHeaders, routeTable, world, worldFor, type World } from './fixtures.ts';

const table = routeTable(await world(testApi()));
const withBody = table.filter((r) => r.body);
const postsWithoutBody = table.filter((r) => !r.body && r.method !== 'GET');
const writes = table.filter((r) => r.method !== 'GET');

const route = (w: World, name: string) => routeTable(w).find((r) => r.name === name)!;
/** Sent by the route's rightful caller, so what is refused is the body. */
const raw = (w: World, name: string, rawBody: string, headers: Record<string, string> = {}) => {
  const r = route(w, name);
  return w.api.call(r.method, r.path(), { rawBody, headers: { ...ownerHeaders(w, r), ...headers } });
};

const MALFORMED = ['{', '{"a":', 'nope', "{'a': 1}", '{"a": 1,}', '{"a": undefined}', '\u0000', '{"a": "\\x"}', '', ' '];
const NOT_OBJECTS = ['null', '[]', '[{}]', '42', '"text"', 'true', '[' .repeat(2000) + ']'.repeat(2000)];

/**
 * One world per route and group: these tests send what must be refused (or, at most, a body the
 * route takes and a no-5xx check), so they need the route's rightful caller, not a fresh store each.
 */
const sharedWorld = (name: string) => {
  let made: Promise<World> | undefined;
  return () => (made ??= worldFor(name));
};

describe.each(withBody.map((r) => [r.name]))('%s', (name) => {
  const worldOf = sharedWorld(name);
  test('malformed JSON is 400 invalid_request', async () => {
    const w = await worldOf();
    for (const body of MALFORMED) expectError(await raw(w, name, body), 400, 'invalid_request');
  });

  test('null, an array or a scalar instead of an object is 400 invalid_request', async () => {
    const w = await worldOf();
    for (const body of NOT_OBJECTS) expectError(await raw(w, name, body), 400, 'invalid_request');
  });

  test('an array of the valid body is still 400', async () => {
    const w = await worldOf();
    const r = route(w, name);
    expectError(await raw(w, name, JSON.stringify([r.body!()])), 400, 'invalid_request');
  });

  test('a body that is not JSON at all, whatever its content type, is 400', async () => {
    const w = await worldOf();
    for (const [type, body] of [['text/plain', 'hello'], ['application/x-www-form-urlencoded', 'a=1&b=2'], ['multipart/form-data', 'junk'], ['application/octet-stream', '\u0001\u0002']]) {
      expectError(await raw(w, name, body!, { 'content-type': type! }), 400, 'invalid_request');
    }
  });

  test('an extra field holding a huge string is never a 5xx', async () => {
    const w = await worldOf();
    const r = route(w, name);
    expectHandled(await raw(w, name, JSON.stringify({ ...r.body!(), junk: 'x'.repeat(30_000), nested: { deep: ['x'.repeat(1000)] } })));
  });

  test('__proto__ and constructor keys are never a 5xx and pollute nothing', async () => {
    const w = await worldOf();
    const r = route(w, name);
    const body = JSON.stringify(r.body!()).replace(/^\{/, '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}},');
    expectHandled(await raw(w, name, body));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe.each(postsWithoutBody.map((r) => [r.name]))('%s (takes no body)', (name) => {
  const worldOf = sharedWorld(name);
  test('junk bodies are never a 5xx and always the error shape', async () => {
    const w = await worldOf();
    for (const body of [...MALFORMED, ...NOT_OBJECTS, '{"x": 1}']) expectHandled(await raw(w, name, body));
  });
});

describe.each(writes.map((r) => [r.name]))('%s: a 70 KB body', (name) => {
  const worldOf = sharedWorld(name);
  const big = JSON.stringify({ junk: 'x'.repeat(70 * 1024) });

  test('with Content-Length is 413 payload_too_large', async () => {
    const w = await worldOf();
    expectError(await raw(w, name, big, { 'content-length': String(big.length) }), 413, 'payload_too_large');
  });

  test('without Content-Length (streamed) is 413 payload_too_large', async () => {
    const w = await worldOf();
    const r = route(w, name);
    const body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 8192) controller.enqueue(new TextEncoder().encode(big.slice(i, i + 8192)));
        controller.close();
      },
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', ...ownerHeaders(w, r) };
    const request = new Request(`http://localhost/v1${r.path()}`, { method: r.method, headers, body, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await w.api.app.handle(request);
    expectError({ status: response.status, headers: response.headers, body: await response.json() }, 413, 'payload_too_large');
  });

  test('is 413 even without a key', async () => {
    const w = await worldOf();
    const r = route(w, name);
    expectError(await w.api.call(r.method, r.path(), { rawBody: big, headers: { 'content-length': String(big.length) } }), 413, 'payload_too_large');
  });

  test('a body just under 64 KiB is not refused for its size', async () => {
    const w = await worldOf();
    const r = route(w, name);
    const body = JSON.stringify({ ...(r.body?.() ?? {}), junk: 'x'.repeat(60 * 1024) });
    const reply = await raw(w, name, body, { 'content-length': String(Buffer.byteLength(body)) });
    expectHandled(reply);
    expect(reply.status).not.toBe(413);
  });
});
