import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import type { TestStore } from '../contracts/stores.ts';
import { CONSOLE_ORIGIN, consoleHeaders, consoleSignIn, passkeyChallenge } from '../support/console.ts';
import { seller, type Reply, type TestApi } from '../support/http.ts';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.ts';
import { apiOver, HTTP_STORES } from '../security/limits/stores.ts';

const NUL = '\u0000';

/** Bad input on the console's routes is a clear JSON error (400, 401, 403, 404, 422), never a 500, on both stores. */
for (const setup of HTTP_STORES) {
  describe(`console routes refuse bad input (${setup.name})`, () => {
    let opened: TestStore;
    let api: TestApi;
    let login: Awaited<ReturnType<typeof consoleSignIn>>;
    beforeEach(async () => {
      opened = await setup.open();
      api = apiOver(opened);
      const email = `seller-${crypto.randomUUID().slice(0, 8)}@example.com`;
      await seller(api, email);
      login = await consoleSignIn(api.call, email);
    });
    afterEach(async () => {
      await opened.dispose();
    });

    const expectJsonError = (reply: Reply, status: number, code: string) =>
      expect({ status: reply.status, code: reply.body?.error?.code, json: reply.headers.get('content-type')?.startsWith('application/json') }).toEqual({ status, code, json: true });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      api.call('POST', path, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

    test('e-mails and codes: NUL bytes, over-long, wrong types, forged ids', async () => {
      expectJsonError(await post('/developers/login', { email: `a${NUL}@example.com` }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login', { email: `${'a'.repeat(300)}@example.com` }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login', { email: 42 }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login', { email: 'not an address' }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login/verify', { loginId: `otp_${NUL}`, code: '123456' }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login/verify', { loginId: 'otp_'.padEnd(101, 'x'), code: '123456' }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login/verify', { loginId: 'otp_forgedforgedforged1', code: '123456' }), 422, 'otp_invalid');
      expectJsonError(await post('/developers/login/verify', { loginId: 'otp_forgedforgedforged1', code: 'x'.repeat(13) }), 400, 'invalid_request');
      expectJsonError(await post('/developers/login/verify', { loginId: 'otp_forgedforgedforged1', code: '12345a' }), 422, 'otp_invalid');
    });

    test('passkey answers: malformed, forged, over-long, NUL bytes', async () => {
      const { challengeId, options } = await passkeyChallenge(api.call);
      const good = await (await SoftwareAuthenticator.create()).assert(options, CONSOLE_ORIGIN);
      const verify = (body: unknown) => post('/developers/login/passkey/verify', body);

      expectJsonError(await verify({ challengeId, response: { ...good, type: 'other' } }), 400, 'invalid_request');
      expectJsonError(await verify({ challengeId, response: { ...good, response: { ...good.response, clientDataJSON: 'not base64url!' } } }), 400, 'invalid_request');
      expectJsonError(await verify({ challengeId, response: { ...good, id: 'A'.repeat(2000) } }), 400, 'invalid_request');
      expectJsonError(await verify({ challengeId: `wch_${NUL}`, response: good }), 400, 'invalid_request');
      expectJsonError(await verify({ challengeId, response: 'a string' }), 400, 'invalid_request');
      expectJsonError(await verify({ challengeId: 'wch_forgedforgedforged1', response: good }), 401, 'unauthorized');
      expectJsonError(await verify({ challengeId, response: { ...good, response: { ...good.response, authenticatorData: 'AAAA', signature: 'AAAA' } } }), 401, 'unauthorized');
      const register = (body: unknown) => post('/developers/passkeys/registration/verify', body, login.headers);
      expectJsonError(await register({ response: { ...good, response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } } }), 400, 'invalid_request');
      expectJsonError(await register({ response: good, name: `n${NUL}` }), 400, 'invalid_request');
      expectJsonError(await register({ response: good, name: 'n'.repeat(101) }), 400, 'invalid_request');
    });

    test('session and passkey ids: forged are 404, over-long or with NUL 400', async () => {
      const revoke = (path: string) => api.call('POST', path, { headers: login.headers });

      expectJsonError(await revoke('/developers/console/sessions/csn_forgedforgedforged1/revoke'), 404, 'not_found');
      expectJsonError(await revoke('/developers/passkeys/psk_forgedforgedforged1/revoke'), 404, 'not_found');
      expectJsonError(await revoke(`/developers/console/sessions/${'x'.repeat(101)}/revoke`), 400, 'invalid_request');
      expectJsonError(await revoke('/developers/passkeys/psk_%00/revoke'), 400, 'invalid_request');
    });

    test('forged cookies are 401 and forged CSRF tokens 403', async () => {
      const products = (headers: Record<string, string>) => api.call('GET', '/developers/products', { headers });

      expectJsonError(await products(consoleHeaders('cs_forged', login.csrf)), 401, 'unauthorized');
      expectJsonError(await products(consoleHeaders(`cs_${'A'.repeat(5000)}`, login.csrf)), 401, 'unauthorized');
      expectJsonError(await products(consoleHeaders('sk_notasession', login.csrf)), 401, 'unauthorized');
      expectJsonError(await products({ cookie: `${CONSOLE_COOKIE}=` }), 401, 'unauthorized');
      expectJsonError(await products(consoleHeaders(login.token, 'x'.repeat(5000))), 403, 'forbidden');
    });
  });
}
