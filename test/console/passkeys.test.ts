import { describe, expect, test } from 'bun:test';
import { CONSOLE_ORIGIN, consoleSignIn, loggedIn, passkeyChallenge, passkeySignIn, registerPasskey } from '../support/console.ts';
import { seller, testApi } from '../support/http.ts';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.ts';
import { expectError } from '../security/codes/codes-app.ts';

async function signedInSeller() {
  const api = testApi();
  const email = `seller-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const dev = await seller(api, email);
  const login = await consoleSignIn(api.call, email);
  return { api, dev, email, login };
}

/** A seller with a registered passkey. */
async function withPasskey() {
  const given = await signedInSeller();
  const authenticator = await SoftwareAuthenticator.create();
  const registered = await registerPasskey(given.api.call, given.login, authenticator, 'Laptop');
  expect(registered.status).toBe(201);
  return { ...given, authenticator, passkey: registered.body };
}

describe('registering a passkey', () => {
  test('a signed-in seller registers one: listed with its name, never its key', async () => {
    const { api, login, passkey } = await withPasskey();

    const list = await api.call('GET', '/developers/passkeys', { headers: login.headers });

    expect(passkey).toMatchObject({ id: expect.stringMatching(/^psk_/), name: 'Laptop' });
    expect(list.body.data).toEqual([{ id: passkey.id, name: 'Laptop', createdAt: passkey.createdAt, lastUsedAt: null }]);
  });

  test('the same passkey registered again is 409, and the options list it to exclude', async () => {
    const { api, login, authenticator } = await withPasskey();

    const options = await api.call('POST', '/developers/passkeys/registration/options', { headers: login.headers });
    const again = await registerPasskey(api.call, login, authenticator);

    expect(options.body.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    expectError(again, 409, 'conflict');
  });

  test('at most 30 registrations started an hour per seller (each leaves a challenge row), then 429 with Retry-After', async () => {
    const { api, login } = await signedInSeller();
    const start = () => api.call('POST', '/developers/passkeys/registration/options', { headers: login.headers });
    for (let i = 0; i < 30; i++) expect((await start()).status).toBe(200);
    const refused = await start();
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('registering a passkey needs a session: none is 401, a secret key is 403', async () => {
    const { api, dev } = await signedInSeller();

    expectError(await api.call('POST', '/developers/passkeys/registration/options'), 401, 'unauthorized');
    expectError(await api.call('POST', '/developers/passkeys/registration/options', { key: dev.apiKey }), 403, 'forbidden');
  });

  test('an attestation from another origin, for another challenge, or sent twice is refused', async () => {
    const { api, login } = await signedInSeller();
    const authenticator = await SoftwareAuthenticator.create();
    const options = await api.call('POST', '/developers/passkeys/registration/options', { headers: login.headers });
    const verify = (response: unknown) => api.call('POST', '/developers/passkeys/registration/verify', { headers: login.headers, body: { response } });

    expectError(await verify(await authenticator.register(options.body, 'https://evil.example')), 400, 'invalid_request');
    expectError(await verify(await authenticator.register({ ...options.body, challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }, CONSOLE_ORIGIN)), 400, 'invalid_request');
    // The first refusal used the challenge up: even a good answer to it is refused now.
    expectError(await verify(await authenticator.register(options.body, CONSOLE_ORIGIN)), 400, 'invalid_request');
  });

  test('one seller cannot answer another seller’s registration challenge', async () => {
    const a = await signedInSeller();
    const strangerEmail = `stranger-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await seller(a.api, strangerEmail);
    const stranger = await consoleSignIn(a.api.call, strangerEmail);
    const authenticator = await SoftwareAuthenticator.create();
    const options = await a.api.call('POST', '/developers/passkeys/registration/options', { headers: a.login.headers });
    const response = await authenticator.register(options.body, CONSOLE_ORIGIN);

    const reply = await a.api.call('POST', '/developers/passkeys/registration/verify', { headers: stranger.headers, body: { response } });

    expectError(reply, 400, 'invalid_request');
    expect((await a.api.call('GET', '/developers/passkeys', { headers: stranger.headers })).body.data).toEqual([]);
  });
});

describe('signing in with a passkey', () => {
  test('the software authenticator signs in: a session of kind passkey, the cookie set, the passkey’s use recorded', async () => {
    const { api, dev, authenticator, passkey } = await withPasskey();

    const reply = await passkeySignIn(api.call, authenticator);
    const login = loggedIn(reply);
    const list = await api.call('GET', '/developers/passkeys', { headers: login.headers });

    expect(reply.body.developer.id).toBe(dev.id);
    expect(reply.body.session.how).toBe('passkey');
    expect(list.body.data[0]).toMatchObject({ id: passkey.id, lastUsedAt: api.clock.now() });
    expect((await api.call('GET', '/developers/products', { headers: login.headers })).status).toBe(200);
  });

  test('a wrong signature is refused', async () => {
    const { api, authenticator } = await withPasskey();

    expectError(await passkeySignIn(api.call, authenticator, { forge: true }), 401, 'unauthorized');
  });

  test('an assertion for another RP id or origin is refused', async () => {
    const { api, authenticator } = await withPasskey();
    const { challengeId, options } = await passkeyChallenge(api.call);
    const otherRp = await authenticator.assert(options, CONSOLE_ORIGIN, { rpId: 'evil.example' });
    const again = await passkeyChallenge(api.call);
    const otherOrigin = await authenticator.assert(again.options, 'https://evil.example');

    expectError(await api.call('POST', '/developers/login/passkey/verify', { body: { challengeId, response: otherRp } }), 401, 'unauthorized');
    expectError(await api.call('POST', '/developers/login/passkey/verify', { body: { challengeId: again.challengeId, response: otherOrigin } }), 401, 'unauthorized');
  });

  test('an assertion without user verification (no PIN, no biometric) is refused', async () => {
    const { api, authenticator } = await withPasskey();

    expectError(await passkeySignIn(api.call, authenticator, { unverified: true }), 401, 'unauthorized');
  });

  test('a challenge works once: the same assertion replayed is refused', async () => {
    const { api, authenticator } = await withPasskey();
    const { challengeId, options } = await passkeyChallenge(api.call);
    const response = await authenticator.assert(options, CONSOLE_ORIGIN);

    const first = await api.call('POST', '/developers/login/passkey/verify', { body: { challengeId, response } });
    const replayed = await api.call('POST', '/developers/login/passkey/verify', { body: { challengeId, response } });

    expect(first.status).toBe(200);
    expectError(replayed, 401, 'unauthorized');
  });

  test('a challenge expires after 5 minutes', async () => {
    const { api, authenticator } = await withPasskey();
    const { challengeId, options } = await passkeyChallenge(api.call);
    const response = await authenticator.assert(options, CONSOLE_ORIGIN);
    api.clock.advance(5 * 60_000);

    expectError(await api.call('POST', '/developers/login/passkey/verify', { body: { challengeId, response } }), 401, 'unauthorized');
  });

  test('a counter that goes back is refused (a cloned key), and one that stays too', async () => {
    const { api, authenticator } = await withPasskey();
    expect((await passkeySignIn(api.call, authenticator, { counter: 10 })).status).toBe(200);

    expectError(await passkeySignIn(api.call, authenticator, { counter: 9 }), 401, 'unauthorized');
    expectError(await passkeySignIn(api.call, authenticator, { counter: 10 }), 401, 'unauthorized');
    expect((await passkeySignIn(api.call, authenticator, { counter: 11 })).status).toBe(200);
  });

  test('an authenticator that keeps no counter (always 0) signs in each time', async () => {
    const { api, authenticator } = await withPasskey();

    expect((await passkeySignIn(api.call, authenticator, { counter: 0 })).status).toBe(200);
    expect((await passkeySignIn(api.call, authenticator, { counter: 0 })).status).toBe(200);
  });

  test('a revoked passkey signs in no more', async () => {
    const { api, login, authenticator, passkey } = await withPasskey();

    const revoked = await api.call('POST', `/developers/passkeys/${passkey.id}/revoke`, { headers: login.headers });

    expect(revoked.status).toBe(204);
    expectError(await passkeySignIn(api.call, authenticator), 401, 'unauthorized');
    expect((await api.call('GET', '/developers/passkeys', { headers: login.headers })).body.data).toEqual([]);
  });

  test('a passkey nobody registered is refused', async () => {
    const { api } = await signedInSeller();
    const unknown = await SoftwareAuthenticator.create();

    expectError(await passkeySignIn(api.call, unknown), 401, 'unauthorized');
  });
});
