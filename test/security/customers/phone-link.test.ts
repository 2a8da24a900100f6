import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sendDueMail } from '../../../src/app/mail/send-mail.ts';
import { PHONE_LINK } from '../../../src/domain/phone-link.ts';
import { maskPhone } from '../../../src/domain/phone.ts';
import { FixedClock } from '../../support/clock.ts';
import { expectError } from '../../terminal/terminal.ts';
import { openBuyerShop, STORES, type Buyer, type BuyerShop } from './buyer-shop.ts';

/**
 * Issue 17: a phone becomes a sign-in factor when it is confirmed in a session that proved the
 * e-mail, and the receipt's link is one such session. A paid checkout's receipt (mailed to the
 * e-mail, so opened by its owner) links to the account page with a token; the code texted to the
 * checkout's phone confirms that phone and signs in. The link is forged by nobody, works once,
 * expires, and is offered only to a customer with no confirmed phone.
 */

let n = 0;
const buyer = (): Buyer => ({ email: `link-${++n}-${crypto.randomUUID().slice(0, 6)}@example.com`, phone: `+1555010${String(1000 + n).slice(-4)}`, card: '4242 4242 4242 4242' });

for (const kind of STORES) {
  describe(`the receipt's phone link (${kind})`, () => {
    let shop: BuyerShop;
    let seller: Awaited<ReturnType<BuyerShop['seller']>>;
    beforeAll(async () => {
      shop = await openBuyerShop(kind, 'sandbox');
      seller = await shop.seller();
    });
    afterAll(() => shop.dispose());

    /** The receipts mailed to this address, newest first, once the outbox is sent. */
    const receipts = async (email: string) => {
      while ((await sendDueMail(shop.deps)).full);
      const mail = await shop.api.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
      return (mail.body.data as { subject: string; text: string; html: string }[]).filter((m) => m.subject.includes('license'));
    };
    const linkIn = (text: string) => new RegExp(`#${PHONE_LINK.fragment}=([A-Za-z0-9._-]+)`).exec(text)?.[1] ?? null;
    const start = (token: string) => shop.api.call('POST', '/auth/phone-link', { body: { token } });
    const verify = (body: { token: string; otpId: string; otp: string }) =>
      shop.api.call('POST', '/auth/phone-link/verify', { body: { deviceFingerprint: 'device-1', ...body } }); // the shop's device

    test('the receipt links to the account page; the texted code confirms the checkout’s phone and signs in', async () => {
      const who = buyer();
      await shop.checkout(seller, who);
      const [receipt] = await receipts(who.email);
      const token = linkIn(receipt!.text)!;
      expect(token).not.toBeNull();
      expect(receipt!.text).toContain(maskPhone(who.phone));
      expect(receipt!.html).toContain(`#${PHONE_LINK.fragment}=${token}`);
      expect(receipt!.text).not.toContain(who.phone); // masked, never the number itself

      const sent = await start(token);
      expect(sent.status).toBe(200);
      expect(sent.body.phoneMasked).toBe(maskPhone(who.phone));
      const done = await verify({ token, otpId: sent.body.otpId, otp: await shop.latestCode(who.phone) });
      expect(done.status).toBe(200);
      expect(done.body.phoneMasked).toBe(maskPhone(who.phone));
      expect(done.body.licenses).toHaveLength(1);
      const customer = (await shop.deps.customers.findByEmail(who.email))!;
      expect(customer.phone).toBe(who.phone);
      expect(customer.phoneVerifiedAt).not.toBeNull();

      // Signed in: the checkout's card is offered, and sign-in codes now go by text to that phone.
      const offer = await shop.offeredCards(done.body.identityToken, seller);
      expect(offer.cards.map((c) => c.last4)).toEqual(['4242']);
      expect((await shop.loginInit(who.email)).body.phoneMasked).toBe(maskPhone(who.phone));

      // Once: the customer has a confirmed phone now.
      expectError(await start(token), 409, 'conflict');
      expectError(await verify({ token, otpId: sent.body.otpId, otp: '000000' }), 409, 'conflict');
      // A later receipt offers no link.
      await shop.checkout(seller, who);
      const [later] = await receipts(who.email);
      expect(linkIn(later!.text)).toBeNull();
    });

    test('a forged, altered or malformed token is refused, and sends nothing', async () => {
      const victim = buyer();
      const rival = buyer();
      await shop.checkout(seller, victim);
      await shop.checkout(seller, rival);
      const token = linkIn((await receipts(victim.email))[0]!.text)!;
      const rivalToken = linkIn((await receipts(rival.email))[0]!.text)!;
      const [customerId, cardId, expires, mac] = token.split('.') as [string, string, string, string];
      const [, rivalCard, , rivalMac] = rivalToken.split('.') as [string, string, string, string];
      const forged = [
        `${customerId}.${rivalCard}.${expires}.${mac}`, // the rival's card (phone) on the victim's account
        `${customerId}.${rivalCard}.${expires}.${rivalMac}`,
        `${customerId}.${cardId}.${(parseInt(expires, 36) + 86_400_000).toString(36)}.${mac}`, // a later expiry
        `${customerId}.${cardId}.${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
        `${customerId}.${cardId}.${expires}`,
        `${token}\u0000`,
        'x'.repeat(256),
      ];
      for (const bad of forged) expectError(await start(bad), 400, 'invalid_request');
      expectError(await shop.api.call('POST', '/auth/phone-link', { body: { token: 'x'.repeat(257) } }), 400, 'invalid_request');
      expectError(await shop.api.call('POST', '/auth/phone-link', { body: {} }), 400, 'invalid_request');
      expect(await shop.outbox(rival.phone)).toEqual([]);
      expect(await shop.outbox(victim.phone)).toEqual([]);
    });

    test('a wrong code or another kind of code does not confirm; the link expires after 7 days', async () => {
      const who = buyer();
      await shop.checkout(seller, who);
      const token = linkIn((await receipts(who.email))[0]!.text)!;
      const sent = await start(token);
      expect(sent.status).toBe(200);
      const code = await shop.latestCode(who.phone);
      expectError(await verify({ token, otpId: sent.body.otpId, otp: code === '000000' ? '111111' : '000000' }), 422, 'otp_invalid');
      // A sign-in code (mailed) is no link code.
      const login = await shop.loginInit(who.email);
      expectError(await verify({ token, otpId: login.body.otpId, otp: await shop.mailedCode(who.email) }), 422, 'otp_invalid');
      expect((await shop.deps.customers.findByEmail(who.email))!.phoneVerifiedAt).toBeNull();

      (shop.deps.clock as FixedClock).advance(PHONE_LINK.lifetimeMs);
      try {
        expectError(await start(token), 410, 'otp_expired');
        expectError(await verify({ token, otpId: sent.body.otpId, otp: code }), 410, 'otp_expired');
      } finally {
        (shop.deps.clock as FixedClock).advance(-PHONE_LINK.lifetimeMs);
      }
    });
  });
}
