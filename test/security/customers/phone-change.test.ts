import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { maskPhone } from '../../../src/domain/phone.ts';
import { expectError, wrongCode } from '../../terminal/terminal.ts';
import { openBuyerShop, STORES, type Buyer, type BuyerShop } from './buyer-shop.ts';

/**
 * The verified phone change: the only way a phone on file changes once set. The code goes to the
 * phone ALREADY on file; it confirms this customer's move to this very phone, nothing else.
 */

const ADA: Buyer = { email: 'ada@example.com', phone: '+15550001111', card: '4242 4242 4242 4242' };
const GRACE: Buyer = { email: 'grace@example.com', phone: '+15550007777', card: '5555 5555 5555 4444' };
const NEW_PHONE = '+15550002222';

for (const kind of STORES) {
  describe(`changing the phone on file (${kind})`, () => {
    let shop: BuyerShop;
    let seller: Awaited<ReturnType<BuyerShop['seller']>>;
    let token: string;
    beforeEach(async () => {
      shop = await openBuyerShop(kind);
      seller = await shop.seller();
      await shop.checkout(seller, ADA);
      token = await shop.login(ADA.email, ADA.phone);
    });
    afterEach(() => shop.dispose());

    const request = (body: unknown, auth: string | null = token) =>
      shop.api.call('POST', '/customer/phone', { headers: auth ? shop.bearer(auth) : {}, body });
    const verify = (body: unknown, auth: string | null = token) =>
      shop.api.call('POST', '/customer/phone/verify', { headers: auth ? shop.bearer(auth) : {}, body });
    const phoneOf = async (email: string) => (await shop.deps.customers.findByEmail(email))!.phone;

    test('the code goes to the phone on file, never to the new one; once confirmed, sign-in texts the new phone and the cards follow', async () => {
      const asked = await request({ phone: '+1 (555) 000-2222' });

      expect(asked.status).toBe(200);
      expect(asked.body).toEqual({ otpId: expect.any(String), phoneMasked: maskPhone(ADA.phone), expiresIn: 300 });
      expect(await shop.outbox(NEW_PHONE)).toEqual([]);
      const code = await shop.latestCode(ADA.phone);

      const confirmed = await verify({ otpId: asked.body.otpId, otp: code, phone: NEW_PHONE });

      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ phoneMasked: maskPhone(NEW_PHONE) });
      expect(await phoneOf(ADA.email)).toBe(NEW_PHONE);
      expect((await shop.loginInit(ADA.email)).body.phoneMasked).toBe(maskPhone(NEW_PHONE));
      const again = await shop.login(ADA.email, NEW_PHONE);
      const offer = await shop.offeredCards(again, seller);
      expect(offer.cards.map((c) => c.last4)).toEqual(['4242']);
      expect((await shop.confirmWith(again, offer.purchaseId, offer.cards[0]!.id, NEW_PHONE)).status).toBe(200);
    });

    test('a wrong code changes nothing (422 otp_invalid)', async () => {
      const asked = await request({ phone: NEW_PHONE });

      const reply = await verify({ otpId: asked.body.otpId, otp: wrongCode(await shop.latestCode(ADA.phone)), phone: NEW_PHONE });

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(ADA.phone);
    });

    test('the code confirms only the phone it was asked for: another phone with it is 422', async () => {
      const asked = await request({ phone: NEW_PHONE });

      const reply = await verify({ otpId: asked.body.otpId, otp: await shop.latestCode(ADA.phone), phone: '+15550003333' });

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(ADA.phone);
    });

    test('someone else’s challenge and code cannot change this customer’s phone, nor theirs', async () => {
      await shop.checkout(seller, GRACE);
      const graceToken = await shop.login(GRACE.email, GRACE.phone);
      const graces = await request({ phone: NEW_PHONE }, graceToken);
      const graceCode = await shop.latestCode(GRACE.phone);

      const reply = await verify({ otpId: graces.body.otpId, otp: graceCode, phone: NEW_PHONE });

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(ADA.phone);
      expect(await phoneOf(GRACE.email)).toBe(GRACE.phone);
    });

    test('another customer’s valid token cannot use this customer’s challenge (422), and changes nothing', async () => {
      await shop.checkout(seller, GRACE);
      const graceToken = await shop.login(GRACE.email, GRACE.phone);
      const asked = await request({ phone: NEW_PHONE });

      const reply = await verify({ otpId: asked.body.otpId, otp: await shop.latestCode(ADA.phone), phone: NEW_PHONE }, graceToken);

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(ADA.phone);
      expect(await phoneOf(GRACE.email)).toBe(GRACE.phone);
    });

    test('without a token, or with a logged-out or made-up one: 401 on both routes, nothing sent', async () => {
      const loggedOut = await shop.login(ADA.email, ADA.phone);
      expect((await shop.api.call('POST', '/auth/logout', { headers: shop.bearer(loggedOut) })).status).toBe(200);
      const sent = (await shop.outbox(ADA.phone)).length;

      for (const auth of [null, loggedOut, 'idt_madeup', 'not-a-token']) {
        expectError(await request({ phone: NEW_PHONE }, auth), 401, 'unauthorized');
        expectError(await verify({ otpId: 'otp_x', otp: '123456', phone: NEW_PHONE }, auth), 401, 'unauthorized');
      }
      expect(await shop.outbox(ADA.phone)).toHaveLength(sent);
    });

    test('a phone-change code cannot sign in', async () => {
      const asked = await request({ phone: NEW_PHONE });

      const reply = await shop.loginVerify({ email: ADA.email, otpId: asked.body.otpId, otp: await shop.latestCode(ADA.phone) });

      expectError(reply, 422, 'otp_invalid');
    });

    test('a sign-in code cannot change the phone', async () => {
      const init = await shop.loginInit(ADA.email);

      const reply = await verify({ otpId: init.body.otpId, otp: await shop.latestCode(ADA.phone), phone: NEW_PHONE });

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(ADA.phone);
    });

    test('a code works once', async () => {
      const asked = await request({ phone: NEW_PHONE });
      const code = await shop.latestCode(ADA.phone);
      expect((await verify({ otpId: asked.body.otpId, otp: code, phone: NEW_PHONE })).status).toBe(200);

      const replay = await verify({ otpId: asked.body.otpId, otp: code, phone: NEW_PHONE });

      expect(replay.status).toBe(422);
      expect(await phoneOf(ADA.email)).toBe(NEW_PHONE);
    });

    test('a code texted to a phone that is no longer on file changes nothing (422)', async () => {
      const stale = await request({ phone: '+15550003333' });
      const staleCode = await shop.latestCode(ADA.phone);
      const moved = await request({ phone: NEW_PHONE });
      expect((await verify({ otpId: moved.body.otpId, otp: await shop.latestCode(ADA.phone), phone: NEW_PHONE })).status).toBe(200);

      const reply = await verify({ otpId: stale.body.otpId, otp: staleCode, phone: '+15550003333' });

      expectError(reply, 422, 'otp_invalid');
      expect(await phoneOf(ADA.email)).toBe(NEW_PHONE);
    });

    test('two changes confirmed at once: one wins, the other is 409 conflict, and the cards follow the winner', async () => {
      const toB = await request({ phone: NEW_PHONE });
      const codeB = await shop.latestCode(ADA.phone);
      const toC = await request({ phone: '+15550003333' });
      const codeC = await shop.latestCode(ADA.phone);

      const replies = await Promise.all([
        verify({ otpId: toB.body.otpId, otp: codeB, phone: NEW_PHONE }),
        verify({ otpId: toC.body.otpId, otp: codeC, phone: '+15550003333' }),
      ]);

      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      // The loser hears 409 when it read the old phone before the winner committed, else 422.
      expect([409, 422]).toContain(statuses.find((s) => s !== 200)!);
      const winner = statuses[0] === 200 ? NEW_PHONE : '+15550003333';
      expect(await phoneOf(ADA.email)).toBe(winner);
      expect((await shop.storedCards(ADA.email)).map((c) => c.phone)).toEqual([winner]);
    });

    test('the phone already on file is 409 conflict, and nothing is sent', async () => {
      const sent = (await shop.outbox(ADA.phone)).length;

      expectError(await request({ phone: ADA.phone }), 409, 'conflict');
      expect(await shop.outbox(ADA.phone)).toHaveLength(sent);
    });

    test('a malformed phone, a NUL byte or a missing field is 400 invalid_request on both routes', async () => {
      const asked = await request({ phone: NEW_PHONE });
      const code = await shop.latestCode(ADA.phone);
      for (const phone of ['12', 'call me', '+1555\u00000002222', '\u0000', '+1 555 000 2222 ext 5', 'x'.repeat(33)]) {
        expectError(await request({ phone }), 400, 'invalid_request');
        expectError(await verify({ otpId: asked.body.otpId, otp: code, phone }), 400, 'invalid_request');
      }
      expectError(await request({}), 400, 'invalid_request');
      expectError(await verify({ otpId: asked.body.otpId, otp: code }), 400, 'invalid_request');
      expectError(await verify({ otpId: `${asked.body.otpId}\u0000`, otp: code, phone: NEW_PHONE }), 400, 'invalid_request');

      expect((await verify({ otpId: asked.body.otpId, otp: code, phone: NEW_PHONE })).status).toBe(200);
    });
  });
}
