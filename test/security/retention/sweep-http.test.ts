import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { RETENTION_MS, sweepExpired } from '../../../src/app/maintenance/sweep.ts';
import { CHECKOUT_LIFETIME_MS } from '../../../src/domain/checkout-session.ts';
import { OTP_LIMITS } from '../../../src/domain/otp-challenge.ts';
import type { TestStore } from '../../contracts/stores.ts';
import { seller, type TestApi } from '../../support/http.ts';
import { apiOver, HTTP_STORES } from '../limits/stores.ts';

/** What a swept record looks like from outside: gone, with the answer an unknown one gets. */

async function connectedSeller(api: TestApi) {
  const s = await seller(api);
  await api.deps.connections.saveAccount({ developerId: s.id, accountId: 'acct_sandbox', connectedAt: api.clock.now() });
  return s;
}

async function customerWithPhone(api: TestApi, phone: string) {
  const email = `buyer-${crypto.randomUUID()}@example.com`;
  await api.deps.customers.findOrCreate({ id: `cus_${crypto.randomUUID().slice(0, 8)}`, email, phone, phoneVerifiedAt: api.clock.now(), createdAt: api.clock.now() });
  return email;
}

for (const setup of HTTP_STORES) {
  describe(`after the retention sweep, over HTTP (${setup.name})`, () => {
    let opened: TestStore;
    beforeEach(async () => {
      opened = await setup.open();
    });
    afterEach(async () => {
      await opened.dispose();
    });

    test('a checkout that expired unpaid 30 days ago: its status is 404 not_found once swept, a recent one still answers expired', async () => {
      const api = apiOver(opened);
      const s = await connectedSeller(api);
      const old = await api.call('POST', '/checkout/init', { key: s.publishableKey, body: { productId: s.product.id } });
      api.clock.advance(CHECKOUT_LIFETIME_MS + RETENTION_MS.unpaidCheckouts - 1_000);
      const recent = await api.call('POST', '/checkout/init', { key: s.publishableKey, body: { productId: s.product.id } });
      api.clock.advance(CHECKOUT_LIFETIME_MS + 2_000);
      const before = await api.call('GET', `/checkout/status/${old.body.sessionId}`);

      await sweepExpired(api.deps);
      const after = await api.call('GET', `/checkout/status/${old.body.sessionId}`);
      const stillThere = await api.call('GET', `/checkout/status/${recent.body.sessionId}`);

      expect(before.body.status).toBe('expired');
      expect(after.status).toBe(404);
      expect(after.body.error.code).toBe('not_found');
      expect(stillThere.body.status).toBe('expired');
    });

    test('a sign-in code a day past its expiry: swept, the right code is 422 otp_invalid, and its text is gone from the outbox', async () => {
      const api = apiOver(opened);
      const phone = '+15550001111';
      const email = await customerWithPhone(api, phone);
      const init = await api.call('POST', '/auth/login/init', { body: { email } });
      const outbox = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
      const code = /\b(\d{6})\b/.exec(outbox.body.data[0].body)![1]!;
      api.clock.advance(OTP_LIMITS.lifetimeMs + RETENTION_MS.otpChallenges + 1_000);

      await sweepExpired(api.deps);
      const verify = await api.call('POST', '/auth/login/verify', { body: { email, otpId: init.body.otpId, otp: code, deviceFingerprint: 'fp' } });
      const outboxAfter = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);

      expect(init.status).toBe(200);
      expect(verify.status).toBe(422);
      expect(verify.body.error.code).toBe('otp_invalid');
      expect(outboxAfter.body.data).toEqual([]);
    });

    test('an identity token 7 days past its expiry is swept: it stays 401 unauthorized', async () => {
      const api = apiOver(opened);
      const phone = '+15550002222';
      const email = await customerWithPhone(api, phone);
      const init = await api.call('POST', '/auth/login/init', { body: { email } });
      const outbox = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
      const code = /\b(\d{6})\b/.exec(outbox.body.data[0].body)![1]!;
      const login = await api.call('POST', '/auth/login/verify', { body: { email, otpId: init.body.otpId, otp: code, deviceFingerprint: 'fp' } });
      const token = login.body.identityToken as string;
      api.clock.advance(30 * 86_400_000 + RETENTION_MS.identityTokens + 1_000);

      const report = await sweepExpired(api.deps);
      const logout = await api.call('POST', '/auth/logout', { headers: { authorization: `Bearer ${token}`, 'x-device-fingerprint': 'fp' } });

      expect(login.status).toBe(200);
      expect(report.identityTokens).toBe(1);
      expect(logout.status).toBe(401);
      expect(logout.body.error.code).toBe('unauthorized');
    });
  });
}
