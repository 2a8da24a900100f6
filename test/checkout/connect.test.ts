import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { CONNECT_STATE_LIFETIME_MS } from '../../src/domain/connect.ts';
import { TEST_ISSUER } from '../support/deps.ts';
import { CONNECTED_ACCOUNT, startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { seller } from '../support/http.ts';
import { expectError } from '../http/fixtures.ts';
import { CONNECT_CLIENT_ID, openShop, type Mode } from './shop.ts';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

const shopIn = (mode: Mode) => openShop(mode === 'stripe' ? { fake } : {});

describe.each([['sandbox'], ['stripe']] as [Mode][])('Connect (%s)', (mode) => {
  test('POST /connect/start with the secret key answers a URL carrying a state', async () => {
    const shop = await shopIn(mode);
    const { reply, state } = await shop.start();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ url: expect.stringMatching(/^https?:\/\//) });
    expect(state.length).toBeGreaterThanOrEqual(20);
    expect(new URL(reply.body.url).searchParams.get('redirect_uri')).toBe(`${TEST_ISSUER}/v1/connect/callback`);
  });

  test('POST /connect/start: a publishable key is 403, no key is 401', async () => {
    const shop = await shopIn(mode);
    expectError((await shop.start(shop.dev.publishableKey)).reply, 403, 'forbidden');
    expectError(await shop.api.call('POST', '/connect/start'), 401, 'unauthorized');
  });

  test('the callback with a good code and the state answers an HTML page, and the seller is connected', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    const reply = await shop.callback({ code: shop.goodCode, state });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/html');
    const connection = await shop.connectStatus();
    expect(connection).toEqual({ connected: true, accountId: expect.stringMatching(/^acct_/) });
    if (mode === 'stripe') expect(connection.accountId).toBe(CONNECTED_ACCOUNT);
  });

  test('before any callback the seller is not connected', async () => {
    const shop = await shopIn(mode);
    await shop.start();
    expect(await shop.connectStatus()).toEqual({ connected: false });
  });

  test('a state is single-use: the same state again is 400', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    await shop.callback({ code: shop.goodCode, state });
    expectError(await shop.callback({ code: shop.goodCode, state }), 400, 'invalid_request');
  });

  test('a state is good for 10 minutes: 1 ms before, it connects', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    shop.clock.advance(CONNECT_STATE_LIFETIME_MS - 1);
    expect((await shop.callback({ code: shop.goodCode, state })).status).toBe(200);
  });

  test('a state exactly 10 minutes old is 400 and connects nothing', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    shop.clock.advance(CONNECT_STATE_LIFETIME_MS);
    expectError(await shop.callback({ code: shop.goodCode, state }), 400, 'invalid_request');
    expect(await shop.connectStatus()).toEqual({ connected: false });
  });

  test('a made-up state, or none, is 400', async () => {
    const shop = await shopIn(mode);
    await shop.start();
    expectError(await shop.callback({ code: shop.goodCode, state: 'st_madeUpByAnAttacker0000000000' }), 400, 'invalid_request');
    expectError(await shop.callback({ code: shop.goodCode }), 400, 'invalid_request');
    expect(await shop.connectStatus()).toEqual({ connected: false });
  });

  test('error=access_denied (the seller declined) is 400 and leaves the seller not connected', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    const reply = await shop.callback({ error: 'access_denied', error_description: 'The user denied your request', state });
    expectError(reply, 400, 'invalid_request');
    expect(await shop.connectStatus()).toEqual({ connected: false });
  });

  test('a code the processor does not know is 400 and connects nothing', async () => {
    const shop = await shopIn(mode);
    const { state } = await shop.start();
    expectError(await shop.callback({ code: 'bad_code_never_issued', state }), 400, 'invalid_request');
    expect(await shop.connectStatus()).toEqual({ connected: false });
  });

  test('the state is bound to the developer who started: A’s state connects A, never B', async () => {
    const shop = await shopIn(mode);
    const b = await seller(shop.api);
    const a = await shop.start();
    await shop.start(b.apiKey);
    expect((await shop.callback({ code: shop.goodCode, state: a.state })).status).toBe(200);
    expect((await shop.connectStatus()).connected).toBe(true);
    expect(await shop.connectStatus(b.apiKey)).toEqual({ connected: false });
  });
});

describe('Connect with Stripe', () => {
  test('the authorize URL is Stripe’s OAuth page (here the fake’s) for our platform, read_write, code flow', async () => {
    const shop = await openShop({ fake });
    const url = new URL((await shop.start()).reply.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', client_id: CONNECT_CLIENT_ID, scope: 'read_write' });
  });

  test('the callback trades the code with Stripe once, as an authorization_code grant', async () => {
    const shop = await openShop({ fake });
    const before = fake.requests.length;
    await shop.connect();
    const tokenCalls = fake.requests.slice(before).filter((r) => r.path === '/oauth/token');
    expect(tokenCalls.map((r) => r.body)).toEqual([expect.objectContaining({ grant_type: 'authorization_code', code: shop.goodCode })]);
  });
});

describe('Connect in the sandbox', () => {
  test('the authorize URL is the service’s own sandbox page', async () => {
    const shop = await openShop();
    const url = new URL((await shop.start()).reply.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${TEST_ISSUER}/v1/sandbox/connect/authorize`);
  });
});
