import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { toErrorResponse } from '../../../src/adapters/http/errors.ts';
import { jsonLogger } from '../../../src/adapters/system/logger.ts';
import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../../contracts/stores.ts';
import { depsFor } from '../../support/deps.ts';
import { testApi, type Reply } from '../../support/http.ts';
import { world, type World } from '../../http/fixtures.ts';
import { freshPostgresSchema, randomMasterKey, startServer } from '../../support/server-process.ts';
import { client } from '../../e2e/support.ts';

/**
 * PostgreSQL text cannot hold U+0000: a NUL anywhere in a request (JSON keys and values, nested, form
 * fields, path ids, query strings) is refused at the edge with 400 invalid_request, on every store,
 * before it reaches a query; and no failed query's parameters ever reach the log.
 */

const NUL = '\u0000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Case {
  name: string;
  send: (w: World) => Promise<Reply>;
}

const json = (w: World, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  w.api.call(method, path, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
const secret = (w: World) => ({ 'x-api-key': w.mine.apiKey });
const customer = (w: World) => w.customer.auth;

const CASES: Case[] = [
  { name: 'signup e-mail', send: (w) => json(w, 'POST', '/developers/signup', { email: `nul${NUL}@example.com`, name: 'N' }) },
  { name: 'signup name', send: (w) => json(w, 'POST', '/developers/signup', { email: 'nul-name@example.com', name: `N${NUL}` }) },
  { name: 'signup, a NUL in a key', send: (w) => json(w, 'POST', '/developers/signup', { email: 'nul-key@example.com', name: 'N', [`x${NUL}`]: 1 }) },
  { name: 'login init e-mail', send: (w) => json(w, 'POST', '/auth/login/init', { email: `ada${NUL}@example.com` }) },
  {
    name: 'login verify deviceFingerprint',
    send: (w) => json(w, 'POST', '/auth/login/verify', { email: w.customer.email, ...w.customer.login, deviceFingerprint: `fp${NUL}` }),
  },
  { name: 'product name', send: (w) => json(w, 'POST', '/developers/products', { name: `P${NUL}`, price: 100, currency: 'usd' }, secret(w)) },
  { name: 'product features, nested', send: (w) => json(w, 'POST', '/developers/products', { name: 'P', price: 100, currency: 'usd', features: ['a', `b${NUL}`] }, secret(w)) },
  { name: 'product PATCH name', send: (w) => json(w, 'PATCH', `/developers/products/${w.mine.product.id}`, { name: `P${NUL}` }, secret(w)) },
  { name: 'grant e-mail', send: (w) => json(w, 'POST', '/developers/licenses', { productId: w.mine.product.id, email: `b${NUL}@example.com` }, secret(w)) },
  { name: 'validate licenseKey', send: (w) => json(w, 'POST', '/licenses/validate', { licenseKey: `${w.licenseKey}${NUL}`, machineFingerprint: 'm' }, { 'x-api-key': w.mine.publishableKey }) },
  { name: 'validate machineFingerprint', send: (w) => json(w, 'POST', '/licenses/validate', { licenseKey: w.licenseKey, machineFingerprint: `m${NUL}` }, { 'x-api-key': w.mine.publishableKey }) },
  { name: 'checkout init productId', send: (w) => json(w, 'POST', '/checkout/init', { productId: `prod_${NUL}` }, { 'x-api-key': w.mine.publishableKey }) },
  { name: 'purchase init productId', send: (w) => json(w, 'POST', '/purchase/init', { productId: `prod_${NUL}` }, customer(w)) },
  { name: 'GET /licenses/<id with %00>', send: (w) => w.api.call('GET', `/licenses/${w.license.id}%00`, { headers: secret(w) }) },
  { name: 'checkout status id', send: (w) => w.api.call('GET', `/checkout/status/${w.sessionId}%00`) },
  { name: 'jwks developer id', send: (w) => w.api.call('GET', `/developers/${w.mine.id}%00/jwks.json`) },
  { name: 'products query startingAfter', send: (w) => w.api.call('GET', '/developers/products?startingAfter=prod_%00', { headers: secret(w) }) },
  { name: 'outbox query to', send: (w) => w.api.call('GET', '/sandbox/outbox?to=%2B1555%00') },
  { name: 'connect callback state', send: (w) => w.api.call('GET', '/connect/callback?code=x&state=st_%00') },
  { name: 'sandbox pay form e-mail', send: (w) => w.api.call('POST', `/sandbox/checkout/${w.sessionId}/pay`, { rawBody: 'email=a%00%40example.com&phone=%2B15551234567&cardNumber=4242424242424242', headers: FORM }) },
];

const STORES: [string, () => Promise<TestStore>][] = [
  ['SQLite', openSqliteTestStore],
  ['PostgreSQL', openPostgresTestStore],
];

describe.each(STORES)('on %s', (_name, open) => {
  let store: TestStore;
  let w: World;
  const logs: string[] = [];

  beforeAll(async () => {
    store = await open();
    w = await world(testApi({ deps: depsFor(store.store), logs }));
  });

  afterAll(async () => {
    await store?.dispose();
  });

  test.each(CASES.map((c) => [c.name, c] as const))('a NUL in the %s is 400 invalid_request', async (_case, c) => {
    const reply = await c.send(w);

    expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
  });

  test('nothing was logged as an error, and no e-mail or hash reached the log', () => {
    const text = logs.join('');

    expect(text).not.toContain('unhandled error');
    expect(text).not.toContain('@example.com');
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });

  test('%2500 (an escaped percent sign followed by 00) is not a NUL: the query is read as text', async () => {
    const reply = await w.api.call('GET', '/sandbox/outbox?to=%2B1555%2500');

    expect(reply.status).not.toBe(500);
    expect(reply.body?.error?.message ?? '').not.toContain('NUL');
  });
});

describe('an unexpected error is logged by its class and code only', () => {
  test('a failed query whose message carries its parameters logs neither message nor parameters', () => {
    const lines: string[] = [];
    const query = Object.assign(new Error('Failed query: select * from customers where email = $1\nparams: ada@example.com,9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'), {
      name: 'DrizzleQueryError',
      cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { name: 'PostgresError', errno: '22021' }),
    });

    const response = toErrorResponse('UNKNOWN', query, jsonLogger('debug', (line) => lines.push(line)));

    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 'error', msg: 'unhandled error', error: 'DrizzleQueryError (PostgresError)', code: '22021' });
    expect(lines[0]).not.toContain('ada@example.com');
    expect(lines[0]).not.toContain('9f86d081');
    expect(lines[0]).not.toContain('select');
  });
});

describe('the real server on PostgreSQL, sent NULs on unauthenticated routes', () => {
  test('answers 400 every time, and its output holds no e-mail, no hash and no unhandled error', async () => {
    const schema = freshPostgresSchema();
    const server = await startServer({ DATABASE_URL: schema.databaseUrl, MASTER_KEY: randomMasterKey(), LOG_LEVEL: 'info' });
    try {
      const call = client(server.url);
      const replies = [
        await call('POST', '/developers/signup', { body: { email: `victim${NUL}@example.com`, name: 'V' } }),
        await call('POST', '/auth/login/init', { body: { email: `victim${NUL}@example.com` } }),
        await call('POST', '/auth/login/verify', { body: { email: 'victim@example.com', otpId: `otp_${NUL}`, otp: '123456', deviceFingerprint: 'fp' } }),
        await call('GET', '/checkout/status/cs_%00abc'),
        await call('GET', '/licenses/lic_%00', { bearer: 'idt_0000' }),
      ];
      await server.stop();

      expect(replies.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
      expect(server.output()).not.toContain('example.com');
      expect(server.output()).not.toContain('unhandled error');
      expect(server.output()).not.toMatch(/[0-9a-f]{64}/);
    } finally {
      if (server.proc.exitCode === null) await server.stop('SIGKILL');
      await schema.drop();
    }
  }, 60_000);
});
