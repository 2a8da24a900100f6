import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { developerWorld, expectError, expectHandled, ownerHeaders, routeTable, world, worldFor, type World } from './fixtures.ts';

const table = routeTable(await world(testApi()));
const withId = table.filter((r) => r.hasIdParam);

const send = (w: World, name: string, id?: string, query = '') => {
  const r = routeTable(w).find((x) => x.name === name)!;
  return w.api.call(r.method, r.path(id) + query, { headers: ownerHeaders(w, r), ...(r.body && { body: r.body() }) });
};

/** Ids that name nothing: the route answers 404 not_found. */
const UNKNOWN_IDS = [
  encodeURIComponent('ü☃😀'), encodeURIComponent('лицензия'), encodeURIComponent('\u0001\u001f'), '..%2F..%2Fetc%2Fpasswd', encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent('<script>alert(1)</script>'), '%20', 'x'.repeat(100), encodeURIComponent('%'), 'lic_' + 'A'.repeat(22),
];
/** Ids no route should even look up (too long, or holding a NUL, which PostgreSQL text cannot store): 400 invalid_request. */
const OVERLONG_IDS = ['x'.repeat(101), 'x'.repeat(5_000), encodeURIComponent('😀'.repeat(60)), '%00', 'lic_%00'];
/** Ids the URL layer may refuse: anything but a 5xx. */
const MALFORMED_IDS = ['%E0%A4%A', '%', '%ZZ', '%C0%AF', '%FF%FE'];

describe.each(withId.map((r) => [r.name]))('%s', (name) => {
  test('unicode, control, traversal and injection ids are 404 not_found', async () => {
    const w = await worldFor(name);
    for (const id of UNKNOWN_IDS) {
      const reply = await send(w, name, id);
      expect({ id, status: reply.status }).toEqual({ id, status: 404 });
      expectError(reply, 404, 'not_found');
    }
  });

  test('ids longer than 100 characters are 400 invalid_request', async () => {
    const w = await worldFor(name);
    for (const id of OVERLONG_IDS) expectError(await send(w, name, id), 400, 'invalid_request');
  });

  test('badly percent-encoded ids are never a 5xx', async () => {
    const w = await worldFor(name);
    for (const id of MALFORMED_IDS) expectHandled(await send(w, name, id));
  });

  test('junk in the query string is ignored or refused, never a 5xx', async () => {
    const w = await worldFor(name);
    for (const query of ['?x=1', '?' + 'a'.repeat(8_000), '?limit=abc', '?%ZZ=1', '?a[b][c]=1', '?__proto__[x]=1']) expectHandled(await send(w, name, undefined, query));
  });
});

describe('GET /developers/products query', () => {
  test.each([['abc'], ['0'], ['-1'], ['1.5'], ['101'], ['1000'], ['1e3'], ['']])('limit=%s is 400 invalid_request', async (limit) => {
    const w = await developerWorld();
    expectError(await send(w, 'GET /developers/products', undefined, `?limit=${limit}`), 400, 'invalid_request');
  });

  test('the out-of-range error names the limit field', async () => {
    const w = await developerWorld();
    for (const limit of ['0', '1000', 'abc']) {
      const reply = await send(w, 'GET /developers/products', undefined, `?limit=${limit}`);
      expect({ limit, details: reply.body.error.details }).toEqual({
        limit, details: expect.objectContaining({ in: 'query', issues: expect.arrayContaining([expect.objectContaining({ field: 'limit' })]) }),
      });
    }
  });

  test.each([['1'], ['100'], ['20']])('limit=%s is accepted', async (limit) => {
    const w = await developerWorld();
    expect((await send(w, 'GET /developers/products', undefined, `?limit=${limit}`)).status).toBe(200);
  });

  test('an over-long, unicode or unknown startingAfter is 400 invalid_request', async () => {
    const w = await developerWorld();
    for (const cursor of ['x'.repeat(101), 'x'.repeat(5_000), encodeURIComponent('ü☃'), 'prod_nope', '%00']) {
      expectError(await send(w, 'GET /developers/products', undefined, `?startingAfter=${cursor}`), 400, 'invalid_request');
    }
  });

  test('repeated or structured parameters are never a 5xx', async () => {
    const w = await developerWorld();
    for (const query of ['?limit=1&limit=2', '?limit[]=1', '?limit[a]=1', '?startingAfter[]=x', '?startingAfter=a&startingAfter=b']) {
      expectHandled(await send(w, 'GET /developers/products', undefined, query));
    }
  });
});

describe.each([['/sandbox/outbox'], ['/sandbox/outbox/view']])('GET %s query', (path) => {
  test.each([[''], ['?to='], ['?to=%20'], [`?to=${'1'.repeat(65)}`], ['?phone=%2B15551234567']])('%s is 400 invalid_request naming `to`', async (query) => {
    const api = testApi();
    const reply = await api.call('GET', `${path}${query}`);
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error.details ?? reply.body.error.message)).toContain('to');
  });

  test('junk, repeated or structured parameters are never a 5xx', async () => {
    const api = testApi();
    for (const query of ['?to[]=1', '?to[a]=1', '?to=1&to=2', '?to=%ZZ', '?to=%00', `?to=${encodeURIComponent('<script>')}`, '?to=%2B1555&' + 'z'.repeat(4_000) + '=1']) {
      expectHandled(await api.call('GET', `${path}${query}`));
    }
  });

  test('a phone nobody texted is an empty outbox, not a 404', async () => {
    const api = testApi();
    const reply = await api.call('GET', `${path}?to=${encodeURIComponent('+15550000000')}`);
    expect(reply.status).toBe(200);
    if (path === '/sandbox/outbox') expect(reply.body).toEqual({ data: [] });
  });
});

describe('junk on the public routes', () => {
  test.each([['/health'], ['/openapi.json'], ['/docs']])('%s with a junk query still answers 200', async (path) => {
    const api = testApi();
    expect((await api.call('GET', `${path}?${'z'.repeat(4_000)}=1&%ZZ`)).status).toBe(200);
  });

  test.each([['/checkout/success'], ['/checkout/cancel']])('%s with a junk query still answers its 200 HTML page', async (path) => {
    const api = testApi();
    const reply = await api.call('GET', `${path}?${'z'.repeat(4_000)}=1&%ZZ&session_id[]=x`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
  });

  test('GET /connect/callback with a junk query is 400 invalid_request, never a 5xx or a page', async () => {
    const w = await developerWorld();
    const queries = [
      '', '?x=1', '?state=', '?code=x', '?code=x&state=y', '?state=' + 'a'.repeat(600), '?code=' + 'c'.repeat(600) + '&state=y',
      '?state[]=x', '?state[a]=x', '?state=a&state=b', '?%ZZ=1', '?state=%00', '?error=' + 'e'.repeat(300), '?__proto__[x]=1&state=y',
    ];
    for (const query of queries) {
      const reply = await w.api.call('GET', `/connect/callback${query}`);
      expect({ query: query.slice(0, 40), status: reply.status }).toEqual({ query: query.slice(0, 40), status: 400 });
      expectError(reply, 400, 'invalid_request');
    }
    expect((await w.api.call('GET', '/connect/status', { key: w.other.apiKey })).body).toEqual({ connected: false });
  });

  test('POST /webhooks/stripe-events with junk in sandbox mode is 400 or 404 in the error shape, never a 5xx', async () => {
    const w = await developerWorld();
    for (const rawBody of ['', '{', '{}', '[]', 'x'.repeat(10_000), '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}']) {
      for (const headers of [{}, { 'stripe-signature': 't=1,v1=abc' }, { 'content-type': 'text/plain' }] as Record<string, string>[]) {
        const reply = await w.api.call('POST', '/webhooks/stripe-events', { rawBody, headers });
        expect([400, 404]).toContain(reply.status);
        expectError(reply, reply.status);
      }
    }
  });

  test('POST /webhooks/stripe-events in sandbox mode, sent as Stripe sends (with Content-Length), is 404 not_found', async () => {
    const w = await developerWorld();
    for (const rawBody of ['{', '{}', '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}']) {
      const headers = { 'content-type': 'application/json', 'content-length': String(rawBody.length), 'stripe-signature': 't=1,v1=abc' };
      expectError(await w.api.call('POST', '/webhooks/stripe-events', { rawBody, headers }), 404, 'not_found');
    }
  });

  test('unknown methods and paths are JSON 404s, never a 5xx', async () => {
    const api = testApi();
    for (const [method, path] of [['PUT', '/health'], ['DELETE', '/licenses/x'], ['GET', '/licenses/validate/extra'], ['POST', '/' + 'x'.repeat(5_000)], ['GET', '/%ZZ']]) {
      const reply = await api.call(method!, path!);
      expectHandled(reply);
      expect(reply.status).toBeGreaterThanOrEqual(400);
    }
  });
});
