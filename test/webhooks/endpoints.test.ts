import { afterEach, describe, expect, test } from 'bun:test';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { expectError } from '../http/fixtures.ts';
import { seller } from '../support/http.ts';
import { webhookWorld } from './support.ts';

const URL = 'https://hooks.example.com/licensing';
let disposers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const dispose of disposers) await dispose();
  disposers = [];
});

function world(store: Store = openSqliteStore(':memory:'), allowPrivate = false) {
  disposers.push(() => store.close());
  return webhookWorld(store, { allowPrivate });
}

describe('registering', () => {
  test('the answer shows a Standard Webhooks secret once; reading the endpoint later never does', async () => {
    const { api } = world();
    const me = await seller(api);

    const created = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL, description: 'Prod' } });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: URL, description: 'Prod', events: null, enabled: true, disabledReason: null, failingSince: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(24);
    const read = await api.call('GET', `/developers/webhook-endpoints/${created.body.id}`, { key: me.apiKey });
    const list = await api.call('GET', '/developers/webhook-endpoints', { key: me.apiKey });
    expect(JSON.stringify([read.body, list.body])).not.toContain(created.body.secret.slice(6));
    expect(JSON.stringify([read.body, list.body])).not.toContain('sealed');
  });

  test.each([
    ['http://hooks.example.com/x', 'https://'],
    ['ftp://hooks.example.com/x', 'https://'],
    ['https://user:pw@hooks.example.com/x', 'credentials'],
    ['https://127.0.0.1/x', 'private'],
    ['https://[::1]/x', 'private'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'private'],
    ['https://localhost/x', 'private'],
    ['https://2130706433/x', 'private'],
    ['not a url', 'https://'],
  ])('%s is refused (400 naming url)', async (url, says) => {
    const { api } = world();
    const me = await seller(api);
    const reply = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url } });
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error)).toContain(says);
    expect(reply.body.error.details.issues[0].field).toBe('url');
  });

  test('with the allow-private setting, a local http:// receiver is accepted', async () => {
    const { api } = world(undefined, true);
    const me = await seller(api);
    expect((await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
  });

  test('an unknown event type is 400 naming it', async () => {
    const { api } = world();
    const me = await seller(api);
    const reply = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL, events: ['license.created', 'license.exploded'] } });
    expectError(reply, 400, 'invalid_request');
    expect(reply.body.error.message).toContain('license.exploded');
  });

  test('a NUL byte in the url or description is refused, not stored', async () => {
    const { api } = world();
    const me = await seller(api);
    for (const body of [{ url: `${URL}\u0000x` }, { url: URL, description: 'a\u0000b' }]) {
      expectError(await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body }), 400, 'invalid_request');
    }
  });

  test('the 21st endpoint is 409 conflict', async () => {
    const { api } = world();
    const me = await seller(api);
    for (let i = 0; i < 20; i++) expect((await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: `${URL}/${i}` } })).status).toBe(201);
    expectError(await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL } }), 409, 'conflict');
  });

  test('on PostgreSQL, 30 concurrent registrations of one seller leave exactly 20 endpoints', async () => {
    const pg: TestStore = await openPostgresTestStore();
    disposers.push(() => pg.dispose());
    const { api } = webhookWorld(pg.store);
    const me = await seller(api);

    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: `${URL}/${i}` } })));

    expect(replies.filter((r) => r.status === 201)).toHaveLength(20);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(10);
    expect((await api.call('GET', '/developers/webhook-endpoints?limit=100', { key: me.apiKey })).body.data).toHaveLength(20);
  }, 30_000);
});

describe('another seller’s endpoints and deliveries do not exist for you', () => {
  test('every route with their id answers 404 not_found, and changes nothing', async () => {
    const { api } = world();
    const mine = await seller(api);
    const theirs = await seller(api);
    const endpoint = (await api.call('POST', '/developers/webhook-endpoints', { key: theirs.apiKey, body: { url: URL } })).body;
    const delivery = (await api.call('POST', `/developers/webhook-endpoints/${endpoint.id}/test`, { key: theirs.apiKey })).body;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/developers/webhook-endpoints/${endpoint.id}`],
      ['PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { url: 'https://evil.example.com/' }],
      ['DELETE', `/developers/webhook-endpoints/${endpoint.id}`],
      ['POST', `/developers/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ['POST', `/developers/webhook-endpoints/${endpoint.id}/test`],
      ['GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`],
      ['GET', `/developers/webhook-deliveries/${delivery.id}`],
      ['POST', `/developers/webhook-deliveries/${delivery.id}/redeliver`],
    ];
    for (const [method, path, body] of attempts) expectError(await api.call(method, path, { key: mine.apiKey, body }), 404, 'not_found');

    expect((await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}`, { key: theirs.apiKey })).body.url).toBe(URL);
    expect((await api.call('GET', '/developers/webhook-endpoints', { key: mine.apiKey })).body.data).toEqual([]);
    expect((await api.call('GET', '/developers/events', { key: mine.apiKey })).body.data).toEqual([]);
    expectError(await api.call('GET', `/developers/events?startingAfter=${delivery.eventId}`, { key: mine.apiKey }), 400, 'invalid_request');
  });
});

describe('changing an endpoint', () => {
  test('disabling stops new deliveries and records why; enabling clears it', async () => {
    const { api } = world();
    const me = await seller(api);
    const endpoint = (await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL } })).body;

    const off = await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey, body: { enabled: false } });
    await me.grant();
    const on = await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey, body: { enabled: true } });

    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'disabled by you' });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });
    expect((await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey })).body.data).toEqual([]);
    expect((await api.call('GET', '/developers/events', { key: me.apiKey })).body.data.map((e: any) => e.type)).toEqual(['license.created']);
  });

  test('events: only the types listed are delivered; null goes back to every type', async () => {
    const { api } = world();
    const me = await seller(api);
    const endpoint = (await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL, events: ['license.revoked'] } })).body;
    const { license } = await me.grant();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: me.apiKey });
    await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey, body: { events: null } });
    await me.grant();

    const log = await api.call('GET', `/developers/webhook-endpoints/${endpoint.id}/deliveries`, { key: me.apiKey });
    expect(log.body.data.map((d: any) => d.eventType)).toEqual(['license.created', 'license.revoked']);
  });

  test.each(['sqlite', 'postgres'])('a test event goes to that endpoint only; a deleted endpoint is gone with its log (%s)', async (kind) => {
    let api = world().api;
    if (kind === 'postgres') {
      const pg: TestStore = await openPostgresTestStore();
      disposers.push(() => pg.dispose());
      api = webhookWorld(pg.store).api;
    }
    const me = await seller(api);
    const [a, b] = await Promise.all([0, 1].map(async (i) => (await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: `${URL}/${i}` } })).body));

    const sent = await api.call('POST', `/developers/webhook-endpoints/${a.id}/test`, { key: me.apiKey });
    expect(sent.body).toMatchObject({ eventType: 'webhook.test', endpointId: a.id, status: 'pending' });
    expect((await api.call('GET', `/developers/webhook-endpoints/${b.id}/deliveries`, { key: me.apiKey })).body.data).toEqual([]);

    expect((await api.call('DELETE', `/developers/webhook-endpoints/${a.id}`, { key: me.apiKey })).body).toEqual({ id: a.id, deleted: true });
    expectError(await api.call('GET', `/developers/webhook-deliveries/${sent.body.id}`, { key: me.apiKey }), 404, 'not_found');
  });

  test('redelivering to a disabled endpoint is 409 conflict', async () => {
    const { api } = world();
    const me = await seller(api);
    const endpoint = (await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: URL } })).body;
    const sent = (await api.call('POST', `/developers/webhook-endpoints/${endpoint.id}/test`, { key: me.apiKey })).body;
    await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.id}`, { key: me.apiKey, body: { enabled: false } });

    expect((await api.call('GET', `/developers/webhook-deliveries/${sent.id}`, { key: me.apiKey })).body).toMatchObject({ status: 'failed', lastError: 'endpoint disabled' });
    expectError(await api.call('POST', `/developers/webhook-deliveries/${sent.id}/redeliver`, { key: me.apiKey }), 409, 'conflict');
  });
});
