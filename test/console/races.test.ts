import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { TestStore } from '../contracts/stores.ts';
import { CONSOLE_ORIGIN, consoleCode, consoleSignIn, passkeyChallenge, registerPasskey } from '../support/console.ts';
import { seller } from '../support/http.ts';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.ts';
import { apiOver, HTTP_STORES } from '../security/limits/stores.ts';

/** What the store alone must decide, on SQLite (a file) and PostgreSQL: one session per code, one use per challenge. */
for (const setup of HTTP_STORES) {
  describe(`console sign-in races (${setup.name})`, () => {
    let opened: TestStore;
    beforeEach(async () => {
      opened = await setup.open();
    });
    afterEach(async () => {
      await opened.dispose();
    });

    async function sellerApp() {
      const api = apiOver(opened);
      const email = `seller-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const dev = await seller(api, email);
      return { api, dev, email };
    }

    test('50 concurrent verifies of one code make one session', async () => {
      const { api, dev, email } = await sellerApp();
      const { loginId, code } = await consoleCode(api.call, email);

      const replies = await Promise.all(Array.from({ length: 50 }, () => api.call('POST', '/developers/login/verify', { body: { loginId, code } })));
      const sessions = await api.call('GET', '/developers/console/sessions', { key: dev.apiKey });

      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      expect(replies.every((r) => [200, 422, 429].includes(r.status))).toBe(true);
      expect(sessions.body.data).toHaveLength(1);
    });

    test('a challenge used twice at once works once', async () => {
      const { api, email } = await sellerApp();
      const login = await consoleSignIn(api.call, email);
      const authenticator = await SoftwareAuthenticator.create();
      expect((await registerPasskey(api.call, login, authenticator)).status).toBe(201);
      const { challengeId, options } = await passkeyChallenge(api.call);
      const response = await authenticator.assert(options, CONSOLE_ORIGIN);

      const replies = await Promise.all(Array.from({ length: 10 }, () => api.call('POST', '/developers/login/passkey/verify', { body: { challengeId, response } })));

      expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(401)]);
    });

    test('one assertion on two challenges signs in once: the counter moves by compare-and-set', async () => {
      const { api, email } = await sellerApp();
      const login = await consoleSignIn(api.call, email);
      const authenticator = await SoftwareAuthenticator.create();
      expect((await registerPasskey(api.call, login, authenticator)).status).toBe(201);
      const [first, second] = [await passkeyChallenge(api.call), await passkeyChallenge(api.call)];
      // Two assertions with the same counter value, each for its own challenge: a cloned key used twice at once.
      const a = await authenticator.assert(first.options, CONSOLE_ORIGIN, { counter: 5 });
      const b = await authenticator.assert(second.options, CONSOLE_ORIGIN, { counter: 5 });

      const replies = await Promise.all([
        api.call('POST', '/developers/login/passkey/verify', { body: { challengeId: first.challengeId, response: a } }),
        api.call('POST', '/developers/login/passkey/verify', { body: { challengeId: second.challengeId, response: b } }),
      ]);

      expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
    });
  });
}
