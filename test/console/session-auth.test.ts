import { describe, expect, test } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import { CONSOLE_ORIGIN, consoleHeaders, consoleSignIn, registerPasskey } from '../support/console.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.ts';
import { expectError } from '../security/codes/codes-app.ts';

const MINUTE = 60_000;

/** A seller with a product and a license, signed in to the console. */
async function signedIn(api: TestApi = testApi()) {
  const email = `seller-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const dev = await seller(api, email);
  const granted = await dev.grant();
  const login = await consoleSignIn(api.call, email);
  return { api, dev, email, login, license: granted.license };
}

describe('CSRF and origin', () => {
  test('the cookie without the CSRF header, or with a wrong one, is 403; with it, 200', async () => {
    const { api, login } = await signedIn();
    const cookie = { cookie: `${CONSOLE_COOKIE}=${login.token}` };

    expectError(await api.call('GET', '/developers/products', { headers: cookie }), 403, 'forbidden');
    expectError(await api.call('POST', '/developers/api-keys', { headers: { ...cookie, 'x-csrf-token': 'wrong' }, body: { scope: 'secret' } }), 403, 'forbidden');
    expect((await api.call('GET', '/developers/products', { headers: login.headers })).status).toBe(200);
  });

  test('another session’s CSRF token does not pass', async () => {
    const api = testApi();
    const a = await signedIn(api);
    const b = await signedIn(api);

    expectError(await api.call('GET', '/developers/products', { headers: consoleHeaders(a.login.token, b.login.csrf) }), 403, 'forbidden');
  });

  test('a foreign Origin is 403; the service’s own origin passes', async () => {
    const { api, login } = await signedIn();

    expectError(await api.call('POST', '/developers/api-keys', { headers: { ...login.headers, origin: 'https://evil.example' }, body: { scope: 'secret' } }), 403, 'forbidden');
    expectError(await api.call('GET', '/developers/console/session', { headers: { ...login.headers, origin: 'null' } }), 403, 'forbidden');
    expect((await api.call('GET', '/developers/products', { headers: { ...login.headers, origin: CONSOLE_ORIGIN } })).status).toBe(200);
  });
});

describe('where the session works', () => {
  test('the session works on a secret-key route, not on a publishable-only or buyer route', async () => {
    const { api, dev, login, license } = await signedIn();
    const validate = { licenseKey: (await dev.grant()).licenseKey, machineFingerprint: 'a'.repeat(64) };

    expect((await api.call('GET', '/developers/products', { headers: login.headers })).status).toBe(200);
    expect((await api.call('GET', `/licenses/${license.id}`, { headers: login.headers })).status).toBe(200);
    expectError(await api.call('POST', '/licenses/validate', { headers: login.headers, body: validate }), 401, 'unauthorized');
    expectError(await api.call('POST', '/checkout/init', { headers: login.headers, body: { productId: dev.product.id } }), 401, 'unauthorized');
    expectError(await api.call('GET', '/customer/licenses', { headers: login.headers }), 401, 'unauthorized');
  });

  test('an X-API-Key header decides alone: a publishable key beside the cookie is 403', async () => {
    const { api, dev, login } = await signedIn();

    expectError(await api.call('GET', '/developers/products', { headers: login.headers, key: dev.publishableKey }), 403, 'forbidden');
  });

  test('GET /developers/console/session answers the sign-in view again without a CSRF header; 401 without a session', async () => {
    const { api, dev, login } = await signedIn();

    const reply = await api.call('GET', '/developers/console/session', { headers: { cookie: `${CONSOLE_COOKIE}=${login.token}` } });

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ developer: { id: dev.id }, session: { id: login.sessionId, how: 'email' }, csrfToken: login.csrf });
    expectError(await api.call('GET', '/developers/console/session'), 401, 'unauthorized');
    expectError(await api.call('GET', '/developers/console/session', { key: dev.apiKey }), 401, 'unauthorized');
  });

  test('recovery: sign in by code, make a secret key, use it', async () => {
    const { api, login } = await signedIn();

    const made = await api.call('POST', '/developers/api-keys', { headers: login.headers, body: { scope: 'secret' } });
    const used = await api.call('GET', '/developers/products', { key: made.body.key });

    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^sk_/);
    expect(used.status).toBe(200);
  });
});

describe('how sessions end', () => {
  test('a session ends after an hour idle and after eight hours', async () => {
    const { api, email, login } = await signedIn();
    const use = () => api.call('GET', '/developers/products', { headers: login.headers });
    for (let i = 0; i < 8; i++) {
      api.clock.advance(59 * MINUTE);
      expect((await use()).status).toBe(200);
    }
    api.clock.advance(8 * MINUTE); // 8 × 59 + 8 = 480 minutes since sign-in
    expectError(await use(), 401, 'unauthorized');

    const idle = await consoleSignIn(api.call, email);
    api.clock.advance(60 * MINUTE);
    expectError(await api.call('GET', '/developers/products', { headers: idle.headers }), 401, 'unauthorized');
  });

  test('sessions are listed with the current one marked; a secret key sees none as current', async () => {
    const api = testApi();
    const { dev, email, login } = await signedIn(api);
    const other = await consoleSignIn(api.call, email, { 'user-agent': 'Firefox/200' });

    const mine = await api.call('GET', '/developers/console/sessions', { headers: login.headers });
    const byKey = await api.call('GET', '/developers/console/sessions', { key: dev.apiKey });

    expect(mine.body.data.map((s: { id: string; current: boolean }) => [s.id, s.current]).sort()).toEqual([[login.sessionId, true], [other.sessionId, false]].sort());
    expect(mine.body.data.find((s: { id: string }) => s.id === other.sessionId)).toMatchObject({ how: 'email', userAgent: 'Firefox/200', clientAddress: expect.any(String) });
    expect(byKey.body.data.every((s: { current: boolean }) => !s.current)).toBe(true);
  });

  test('revoke, revoke-all and logout end sessions at once', async () => {
    const api = testApi();
    const { email, login } = await signedIn(api);
    const second = await consoleSignIn(api.call, email);
    const third = await consoleSignIn(api.call, email);
    const products = (headers: Record<string, string>) => api.call('GET', '/developers/products', { headers });

    expect((await api.call('POST', `/developers/console/sessions/${second.sessionId}/revoke`, { headers: login.headers })).status).toBe(204);
    expectError(await products(second.headers), 401, 'unauthorized');
    expect((await products(login.headers)).status).toBe(200);

    const out = await api.call('POST', '/developers/logout', { headers: third.headers });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe(`${CONSOLE_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0`);
    expectError(await products(third.headers), 401, 'unauthorized');

    api.clock.advance(16 * MINUTE); // 3 codes per 15 minutes
    const fourth = await consoleSignIn(api.call, email);
    expect((await api.call('POST', '/developers/console/sessions/revoke-all', { headers: login.headers })).status).toBe(204);
    expectError(await products(login.headers), 401, 'unauthorized');
    expectError(await products(fourth.headers), 401, 'unauthorized');
  });
});

describe('one seller, one seller’s data', () => {
  test('a seller’s session never reads or revokes another seller’s data, sessions or passkeys', async () => {
    const api = testApi();
    const a = await signedIn(api);
    const b = await signedIn(api);
    const passkey = (await registerPasskey(api.call, b.login, await SoftwareAuthenticator.create())).body;

    const products = await api.call('GET', '/developers/products', { headers: a.login.headers });
    const licenses = await api.call('GET', '/developers/licenses', { headers: a.login.headers });
    const sessions = await api.call('GET', '/developers/console/sessions', { headers: a.login.headers });

    expect(products.body.data.map((p: { id: string }) => p.id)).toEqual([a.dev.product.id]);
    expect(licenses.body.data.map((l: { id: string }) => l.id)).toEqual([a.license.id]);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([a.login.sessionId]);
    expectError(await api.call('GET', `/licenses/${b.license.id}`, { headers: a.login.headers }), 404, 'not_found');
    expectError(await api.call('POST', `/developers/console/sessions/${b.login.sessionId}/revoke`, { headers: a.login.headers }), 404, 'not_found');
    expectError(await api.call('POST', `/developers/passkeys/${passkey.id}/revoke`, { headers: a.login.headers }), 404, 'not_found');
    expect((await api.call('GET', '/developers/passkeys', { headers: a.login.headers })).body.data).toEqual([]);
    expect((await api.call('POST', '/developers/console/sessions/revoke-all', { headers: a.login.headers })).status).toBe(204);
    expect((await api.call('GET', '/developers/products', { headers: b.login.headers })).status).toBe(200);
    expect((await api.call('GET', '/developers/passkeys', { headers: b.login.headers })).body.data).toHaveLength(1);
  });
});
