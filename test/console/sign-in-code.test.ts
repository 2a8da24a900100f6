import { describe, expect, test } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import type { AddressLimits } from '../../src/domain/settings.ts';
import { consoleCode, consoleHeaders, consoleSignIn, cookieToken, loggedIn } from '../support/console.ts';
import { sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError, wrongCode } from '../security/codes/codes-app.ts';
import { from } from '../security/limits/stores.ts';
import { mailedCode } from '../support/sign-in.ts';

const MINUTE = 60_000;

/** The app behind a proxy that sets X-Forwarded-For (so tests speak from several addresses), with a seller. */
async function consoleApp(limits: Partial<AddressLimits> = {}) {
  const { deps } = sqliteDeps();
  const api = testApi({ deps: { ...deps, settings: testSettings({ addressLimits: limits, trustedProxyHeader: 'x-forwarded-for' }) } });
  const email = `seller-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const dev = await seller(api, email);
  return { api, dev, email };
}

const mailTo = async (api: TestApi, email: string) => (await api.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`)).body.data as { text: string }[];
const verify = (api: TestApi, loginId: string, code: string, address = '198.51.100.1') =>
  api.call('POST', '/developers/login/verify', { headers: from(address), body: { loginId, code } });

describe('sign-in by e-mailed code', () => {
  test('202 with a login id, the code in the seller’s mail, then 200: the seller, the session and its CSRF token', async () => {
    const { api, dev, email } = await consoleApp();

    const started = await api.call('POST', '/developers/login', { body: { email: email.toUpperCase() } });
    const mail = await mailTo(api, email);
    const code = /code is (\d{6})/.exec(mail[0]!.text)![1]!;
    const verified = await verify(api, started.body.loginId, code);

    expect(started.status).toBe(202);
    expect(started.body).toEqual({ loginId: expect.stringMatching(/^otp_/), expiresIn: 300 });
    expect(mail[0]!.text).toContain('console sign-in code');
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      developer: { id: dev.id, email, name: 'Seller' },
      session: { id: expect.stringMatching(/^csn_/), createdAt: api.clock.now(), expiresAt: api.clock.now() + 8 * 60 * MINUTE, how: 'email' },
      csrfToken: expect.any(String),
    });
    expect(verified.headers.get('cache-control')).toBe('no-store');
  });

  test('the cookie is HttpOnly, Secure, SameSite=Strict, host-only (__Host-, Path=/, no Domain), 8 hours', async () => {
    const { api, email } = await consoleApp();

    const reply = await (async () => {
      const { loginId, code } = await consoleCode(api.call, email);
      return verify(api, loginId, code);
    })();
    const cookie = reply.headers.get('set-cookie')!;
    const attributes = cookie.split(';').slice(1).map((a) => a.trim());

    expect(cookie).toMatch(new RegExp(`^${CONSOLE_COOKIE}=cs_[A-Za-z0-9]{43};`));
    expect(attributes.sort()).toEqual(['HttpOnly', 'Max-Age=28800', 'Path=/', 'SameSite=Strict', 'Secure']);
  });

  test('a wrong code is 422 and the right one still works; a used code is 422; an expired one 410', async () => {
    const { api, email } = await consoleApp();
    const { loginId, code } = await consoleCode(api.call, email);

    expectError(await verify(api, loginId, wrongCode(code)), 422, 'otp_invalid');
    expect((await verify(api, loginId, code)).status).toBe(200);
    expectError(await verify(api, loginId, code), 422, 'otp_invalid');

    const next = await consoleCode(api.call, email);
    api.clock.advance(5 * MINUTE);
    expectError(await verify(api, next.loginId, next.code), 410, 'otp_expired');
  });

  test('a code allows 5 tries: the 6th is 429 otp_attempts_exceeded, the right code too', async () => {
    const { api, email } = await consoleApp();
    const { loginId, code } = await consoleCode(api.call, email);

    for (let i = 0; i < 5; i++) expectError(await verify(api, loginId, wrongCode(code)), 422, 'otp_invalid');

    expectError(await verify(api, loginId, code), 429, 'otp_attempts_exceeded');
  });

  test('a buyer’s sign-in code, or a made-up id, never signs a seller in', async () => {
    const { api, dev, email } = await consoleApp();
    await dev.grant({ email }); // the seller's address is a buyer's too
    const buyer = await api.call('POST', '/auth/login/init', { body: { email } });
    const buyerCode = await mailedCode(api.call, email);

    expectError(await verify(api, buyer.body.otpId, buyerCode), 422, 'otp_invalid');
    expectError(await verify(api, 'otp_madeUpmadeUpmadeUp12', '123456'), 422, 'otp_invalid');
  });

  test('an unknown e-mail hears what a seller hears, and its code never passes', async () => {
    const { api, email } = await consoleApp();
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;

    const known = await api.call('POST', '/developers/login', { body: { email } });
    const stranger = await api.call('POST', '/developers/login', { body: { email: unknown } });
    // The decoy's code exists only as a digest: find it (10⁶ tries), and it still does not sign in.
    const challenge = (await api.deps.otps.findById(stranger.body.loginId))!;
    let decoyCode = '';
    for (let n = 0; n < 1_000_000 && !decoyCode; n++) {
      const candidate = String(n).padStart(6, '0');
      if (api.deps.otpCodes.digest(challenge.id, candidate) === challenge.codeDigest) decoyCode = candidate;
    }

    expect({ status: stranger.status, fields: Object.keys(stranger.body).sort(), expiresIn: stranger.body.expiresIn }).toEqual({
      status: known.status, fields: Object.keys(known.body).sort(), expiresIn: known.body.expiresIn,
    });
    expect(await mailTo(api, unknown)).toEqual([]);
    expect(decoyCode).toMatch(/^\d{6}$/);
    expectError(await verify(api, stranger.body.loginId, decoyCode), 422, 'otp_invalid');
  }, 30_000);

  test('every sign-in sets a new token; a planted one is not adopted', async () => {
    const { api, email } = await consoleApp();
    const planted = `cs_${'A'.repeat(43)}`;
    const { loginId, code } = await consoleCode(api.call, email);

    const first = await api.call('POST', '/developers/login/verify', { headers: { cookie: `${CONSOLE_COOKIE}=${planted}` }, body: { loginId, code } });
    const second = loggedIn(await (async () => {
      const again = await consoleCode(api.call, email);
      return verify(api, again.loginId, again.code);
    })());

    expect(cookieToken(first)).not.toBe(planted);
    expect(cookieToken(first)).not.toBe(second.token);
    expectError(await api.call('GET', '/developers/console/session', { headers: { cookie: `${CONSOLE_COOKIE}=${planted}` } }), 401, 'unauthorized');
    expectError(await api.call('GET', '/developers/products', { headers: consoleHeaders(planted, first.body.csrfToken) }), 401, 'unauthorized');
  });
});

describe('limits, as buyer sign-in: per e-mail and address, per account, per address', () => {
  test('codes per e-mail and address are limited: the 4th in 15 minutes is 429, another address still gets one', async () => {
    const { api, email } = await consoleApp();
    const ask = (address: string) => api.call('POST', '/developers/login', { headers: from(address), body: { email } });
    for (let i = 0; i < 3; i++) expect((await ask('203.0.113.1')).status).toBe(202);

    const fourth = await ask('203.0.113.1');

    expectError(fourth, 429, 'rate_limited');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('203.0.113.2')).status).toBe(202);
  });

  test('50 codes a day per e-mail from all addresses, then 429 (the cost cap)', async () => {
    const { api, email } = await consoleApp();
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      statuses.push((await api.call('POST', '/developers/login', { headers: from(`203.0.113.${10 + Math.floor(i / 3)}`), body: { email } })).status);
    }

    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(202));
    expect(statuses[50]).toBe(429);
  });

  test('20 wrong codes lock the account’s sign-in from that address for an hour; another address signs in', async () => {
    const { api, email } = await consoleApp();
    const attacker = '203.0.113.66';
    let wrong = 0;
    while (wrong < 20) {
      if (wrong > 0 && wrong % 15 === 0) api.clock.advance(16 * MINUTE);
      const { loginId, code } = await consoleCode(api.call, email, from(attacker));
      for (let i = 0; i < 5 && wrong < 20; i++, wrong++) expectError(await verify(api, loginId, wrongCode(code), attacker), 422, 'otp_invalid');
    }
    api.clock.advance(16 * MINUTE);
    const mailsBefore = (await mailTo(api, email)).length;
    const locked = await api.call('POST', '/developers/login', { headers: from(attacker), body: { email } });

    expect(locked.status).toBe(202); // answered alike, but sent nothing
    expect((await mailTo(api, email)).length).toBe(mailsBefore);
    expectError(await verify(api, locked.body.loginId, '000000', attacker), 429, 'rate_limited');
    expect((await consoleSignIn(api.call, email, from('198.51.100.9'))).developerId).toBeDefined();
    api.clock.advance(60 * MINUTE);
    expect((await consoleSignIn(api.call, email, from(attacker))).developerId).toBeDefined();
  });

  test('sign-in starts count per client address with buyer sign-ins (LOGIN_RATE_LIMIT_PER_HOUR)', async () => {
    const { api, email } = await consoleApp({ loginInitsPerHour: 2 });
    await api.call('POST', '/auth/login/init', { headers: from('203.0.113.5'), body: { email: 'buyer@example.com' } });
    expect((await api.call('POST', '/developers/login', { headers: from('203.0.113.5'), body: { email } })).status).toBe(202);

    expectError(await api.call('POST', '/developers/login', { headers: from('203.0.113.5'), body: { email } }), 429, 'rate_limited');
    expectError(await api.call('POST', '/developers/login/passkey/options', { headers: from('203.0.113.5') }), 429, 'rate_limited');
    expect((await api.call('POST', '/developers/login', { headers: from('203.0.113.6'), body: { email } })).status).toBe(202);
  });
});
