import { failureKey } from '../../../src/app/auth/login.ts';
import { UNKNOWN_ADDRESS } from '../../../src/adapters/http/client-address.ts';
import { afterEach, describe, expect, test } from 'bun:test';
import { aBuyer, CODE_STORES, expectError, openCodesApp, retryAfterOf, wrongCode, type CodesApp } from './codes-app.ts';

/**
 * Issue 9, medium: invented challenge ids locked any customer's sign-in for an hour; purchase codes
 * never locked (unlimited purchases × 3 codes × 5 tries with a stolen identity token).
 */

const QUARTER = 15 * 60_000;

for (const factory of CODE_STORES) {
  describe(`what counts towards the sign-in lock, on ${factory.name}`, () => {
    let app: CodesApp;
    afterEach(async () => app?.dispose());

    test('25 verifies with made-up challenge ids count nothing: the customer still signs in', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());

      for (let i = 0; i < 25; i++) expectError(await app.loginVerify(buyer, `otp_madeup${i}${crypto.randomUUID().slice(0, 8)}`, '123456'), 422, 'otp_invalid');

      const { otpId, code } = await app.challenge(buyer);
      expect((await app.loginVerify(buyer, otpId, code)).status).toBe(200);
    });

    test('guesses at another e-mail’s challenge, a used one or an expired one count nothing either', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const other = await app.payInBrowser(aBuyer());
      const others = await app.challenge(other);
      const used = await app.challenge(buyer);
      expect((await app.loginVerify(buyer, used.otpId, used.code)).status).toBe(200);
      const expired = await app.challenge(buyer);
      app.clock.advance(5 * 60_000);

      for (let i = 0; i < 10; i++) {
        expectError(await app.loginVerify(buyer, others.otpId, wrongCode(others.code)), 422, 'otp_invalid');
        expectError(await app.loginVerify(buyer, used.otpId, wrongCode(used.code)), 422, 'otp_invalid');
        expectError(await app.loginVerify(buyer, expired.otpId, wrongCode(expired.code)), 410, 'otp_expired');
      }

      // Sign-in failures count per customer and client address (the in-process app sees no socket).
      const key = failureKey(app.deps, (await app.deps.customers.findByEmail(buyer.email))!.id, buyer.email, UNKNOWN_ADDRESS);
      expect(await app.deps.otps.loginFailures(key)).toEqual(
        expect.objectContaining({ consecutive: 0, lockedUntil: null }),
      );
      const { otpId, code } = await app.challenge(buyer);
      expect((await app.loginVerify(buyer, otpId, code)).status).toBe(200);
    });
  });

  describe(`purchase codes lock like sign-in, on ${factory.name}`, () => {
    let app: CodesApp;
    afterEach(async () => app?.dispose());

    /** A new purchase with its code sent (the clock moves on a quarter first, clear of the send limits). */
    async function purchaseWithCode(token: string) {
      app.clock.advance(QUARTER);
      const init = await app.purchaseInit(token);
      expect(init.status).toBe(200);
      const otp = await app.purchaseOtp(token, init.body.purchaseId);
      expect(otp.status).toBe(200);
      return { purchaseId: init.body.purchaseId as string, otpId: otp.body.otpId as string, cardId: init.body.cards[0].id as string };
    }

    test('20 wrong purchase codes over 5 purchases lock the customer’s purchases for an hour: the right code is 429, no code is sent', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const token = await app.login(buyer);
      for (const tries of [5, 5, 5, 4]) {
        const p = await purchaseWithCode(token);
        const code = await app.latestCode(buyer.phone);
        for (let i = 0; i < tries; i++) expectError(await app.purchaseConfirm(token, { ...p, otp: wrongCode(code) }), 422, 'otp_invalid');
      }
      const last = await purchaseWithCode(token);
      const code = await app.latestCode(buyer.phone);
      expectError(await app.purchaseConfirm(token, { ...last, otp: wrongCode(code) }), 422, 'otp_invalid');

      const right = await app.purchaseConfirm(token, { ...last, otp: code });
      const another = await app.purchaseInit(token);
      const newCode = await app.purchaseOtp(token, another.body.purchaseId);

      expectError(right, 429, 'rate_limited');
      expect(retryAfterOf(right)).toBe(3600);
      expectError(newCode, 429, 'rate_limited');
      expect(retryAfterOf(newCode)).toBe(3600);
    });

    test('the purchase lock is the purchases’ own: sign-in still works, and after the hour a purchase goes through', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const token = await app.login(buyer);
      for (let n = 0; n < 4; n++) {
        const p = await purchaseWithCode(token);
        const code = await app.latestCode(buyer.phone);
        for (let i = 0; i < 5; i++) await app.purchaseConfirm(token, { ...p, otp: wrongCode(code) });
      }
      expectError(await app.purchaseOtp(token, (await app.purchaseInit(token)).body.purchaseId), 429, 'rate_limited');

      app.clock.advance(QUARTER);
      expect((await app.login(buyer)).startsWith('idt_')).toBe(true);
      app.clock.advance(60 * 60_000);
      const p = await purchaseWithCode(token);
      const paid = await app.purchaseConfirm(token, { ...p, otp: await app.latestCode(buyer.phone) });
      expect(paid.status).toBe(200);
    });
  });
}

describe('phone-change codes lock like sign-in (SQLite)', () => {
  let app: CodesApp;
  afterEach(async () => app?.dispose());

  test('20 wrong phone-change codes lock phone changes for an hour: the right code is 429, and no new code is sent', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const buyer = await app.payInBrowser(aBuyer());
    const token = await app.login(buyer);
    const call = (path: string, body: Record<string, string>) => app.api.call('POST', path, { headers: app.bearer(token), body });
    const newPhone = '+15559990000';
    let last = { otpId: '', code: '' };
    for (const tries of [5, 5, 5, 4, 1]) {
      app.clock.advance(QUARTER);
      const asked = await call('/customer/phone', { phone: newPhone });
      expect(asked.status).toBe(200);
      last = { otpId: asked.body.otpId, code: await app.latestCode(buyer.phone) };
      for (let i = 0; i < tries; i++) expectError(await call('/customer/phone/verify', { otpId: last.otpId, otp: wrongCode(last.code), phone: newPhone }), 422, 'otp_invalid');
    }

    const right = await call('/customer/phone/verify', { otpId: last.otpId, otp: last.code, phone: newPhone });
    const again = await call('/customer/phone', { phone: newPhone });

    expectError(right, 429, 'rate_limited');
    expectError(again, 429, 'rate_limited');
    expect((await app.deps.customers.findByEmail(buyer.email))!.phone).toBe(buyer.phone);
  });
});
