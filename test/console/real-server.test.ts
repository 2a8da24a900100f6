import { afterAll, beforeAll, expect, test } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import { apiOf, freePort, randomMasterKey, spawnService, untilHealthy, type Spawned } from '../support/server-process.ts';
import { mailedCode } from '../support/sign-in.ts';

/**
 * The whole e-mail sign-in over a real socket: the service process (SQLite, sandbox mode), its code
 * read from the sandbox's kept mail, the cookie read off the real Set-Cookie header, then used.
 * (Live mail goes over SMTP only with live payments: test/mail covers that transport.)
 */
let service: Spawned;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  service = { ...(await spawnService({ PORT: String(port), PUBLIC_BASE_URL: url, DATABASE_URL: 'sqlite::memory:', MASTER_KEY: randomMasterKey(), LOG_LEVEL: 'info' })), url };
  await untilHealthy(service);
}, 60_000);

afterAll(async () => {
  service?.kill();
  await service?.exited;
});

const send = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${service.url}/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });

test('sign in by a code e-mailed, then use the cookie with its CSRF token; the log holds neither', async () => {
  const email = 'console-seller@example.com';
  const signup = await (await send('POST', '/developers/signup', { body: { email, name: 'Seller' } })).json();

  const started = await send('POST', '/developers/login', { body: { email } });
  const { loginId } = await started.json();
  const code = await mailedCode(apiOf(() => service), email);
  const verified = await send('POST', '/developers/login/verify', { body: { loginId, code } });
  const body = await verified.json();
  const cookie = verified.headers.getSetCookie()[0]!;
  const token = new RegExp(`^${CONSOLE_COOKIE}=([^;]+)`).exec(cookie)![1]!;
  const headers = { cookie: `${CONSOLE_COOKIE}=${token}`, 'x-csrf-token': body.csrfToken };

  const products = await send('GET', '/developers/products', { headers });
  const withoutCsrf = await send('GET', '/developers/products', { headers: { cookie: headers.cookie } });
  const foreign = await send('GET', '/developers/products', { headers: { ...headers, origin: 'https://evil.example' } });
  const session = await (await send('GET', '/developers/console/session', { headers: { cookie: headers.cookie } })).json();
  const loggedOut = await send('POST', '/developers/logout', { headers });
  const after = await send('GET', '/developers/products', { headers });

  expect(started.status).toBe(202);
  expect(verified.status).toBe(200);
  expect(body.developer.id).toBe(signup.id);
  expect(cookie).toContain('HttpOnly; Secure; SameSite=Strict; Path=/');
  expect(products.status).toBe(200);
  expect([withoutCsrf.status, foreign.status]).toEqual([403, 403]);
  expect(session.csrfToken).toBe(body.csrfToken);
  expect(loggedOut.status).toBe(204);
  expect(after.status).toBe(401);
  expect(service.output()).not.toContain(token);
  expect(service.output()).not.toContain(code);
}, 30_000);
