import { describe, expect, test } from 'bun:test';
import { expectError } from '../../terminal/terminal.ts';
import { openBuyerShop, STORES, type Buyer, type BuyerShop } from './buyer-shop.ts';

/**
 * Issue 17: an e-mail nobody proved is no identity. A rival's checkout (any seller's cheapest
 * product) with a granted or trial customer's e-mail used to set the sign-in phone, and the payer
 * then signed in as that customer: every key from every seller, their machines, their grants.
 * Now a checkout's phone stays with its card, and sign-in codes go to the e-mail (or a phone the
 * e-mail's owner confirmed), so the payer never reaches the victim's keys, cards or machines.
 */

const VICTIM = { email: 'owner@example.com', phone: '+15550007777' };
/** The rival pays any seller's product with the victim's e-mail, their own phone and card. */
const RIVAL: Buyer = { email: VICTIM.email, phone: '+15559998888', card: '4000 0566 5566 5556' };
const MACHINE = 'a'.repeat(64);

async function withShop(kind: (typeof STORES)[number], run: (shop: BuyerShop) => Promise<void>) {
  const shop = await openBuyerShop(kind, 'sandbox');
  try {
    await run(shop);
  } finally {
    await shop.dispose();
  }
}

/** The victim holds a license from `seller` (granted, or a trial started by the seller's server) on a machine. */
async function victimHolds(shop: BuyerShop, how: 'grant' | 'trial') {
  const seller = await shop.seller();
  let licenseId: string;
  if (how === 'grant') {
    const grant = await shop.api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: VICTIM.email } });
    expect(grant.status).toBe(201);
    licenseId = grant.body.license?.id ?? grant.body.id;
    const key = grant.body.licenseKey as string;
    expect((await shop.api.call('POST', '/licenses/activate', { key: seller.apiKey, body: { licenseKey: key, machineFingerprint: MACHINE } })).status).toBe(201);
  } else {
    await shop.api.call('PATCH', `/developers/products/${seller.productId}`, { key: seller.apiKey, body: { trialDays: 14 } });
    const trial = await shop.api.call('POST', '/trials', { key: seller.apiKey, body: { productId: seller.productId, email: VICTIM.email, machineFingerprint: MACHINE } });
    expect(trial.status).toBe(201);
    licenseId = trial.body.license.id;
  }
  return { seller, licenseId };
}

for (const kind of STORES) {
  for (const how of ['grant', 'trial'] as const) {
    describe(`a rival's checkout with a ${how === 'grant' ? 'granted' : 'trial'} customer's e-mail takes nothing (${kind})`, () => {
      test('the rival cannot sign in: the code goes to the victim’s mailbox, never to the rival’s phone', () =>
        withShop(kind, async (shop) => {
          await victimHolds(shop, how);
          const rivalSeller = await shop.seller('Fifty cents');
          await shop.checkout(rivalSeller, RIVAL);

          const init = await shop.loginInit(VICTIM.email);
          expect(init.status).toBe(200);
          expect(await shop.outbox(RIVAL.phone)).toEqual([]);
          // Whatever the rival guesses, the code they were never sent does not pass, and their address locks.
          for (const otp of ['000000', '123456', '999999']) expectError(await shop.loginVerify({ email: VICTIM.email, otpId: init.body.otpId, otp }), 422, 'otp_invalid');
          expect((await shop.deps.customers.findByEmail(VICTIM.email))!.phone).toBeNull();
        }));

      test('the victim signs in by e-mail, sees the keys, keeps the machine, and is never offered the rival’s card', () =>
        withShop(kind, async (shop) => {
          const { seller, licenseId } = await victimHolds(shop, how);
          const rivalSeller = await shop.seller('Fifty cents');
          await shop.checkout(rivalSeller, RIVAL);
          await shop.checkout(seller, RIVAL); // the rival also buys the victim's seller's product

          const token = await shop.login(VICTIM.email, VICTIM.phone); // by e-mail, then the victim's own phone
          const licenses = await shop.api.call('GET', '/customer/licenses', { headers: shop.bearer(token) });
          expect(licenses.status).toBe(200);
          const own = licenses.body.data.find((l: { id: string }) => l.id === licenseId);
          expect(own.activations.map((m: { machineFingerprint: string }) => m.machineFingerprint)).toEqual([MACHINE]);
          const offer = await shop.offeredCards(token, seller);
          expect(offer.cards).toEqual([]); // the only card at this seller is the rival's, saved with the rival's phone
          const rivalsCard = (await shop.storedCards(VICTIM.email)).find((c) => c.phone === RIVAL.phone && c.developerId === seller.developerId)!;
          expectError(await shop.confirmWith(token, offer.purchaseId, rivalsCard.id, VICTIM.phone), 404, 'not_found');
        }));
    });
  }

  describe(`sign-in starts are alike for unknown, phone-less and phoned customers (${kind})`, () => {
    test('same status, same fields, masked phones of the same shape', () =>
      withShop(kind, async (shop) => {
        const seller = await shop.seller();
        await shop.api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: 'granted@example.com' } });
        await shop.checkout(seller, { email: 'phoned@example.com', phone: '+15550001234', card: '4242 4242 4242 4242' });
        await shop.login('phoned@example.com', '+15550001234');

        const answers = await Promise.all(['nobody@example.com', 'granted@example.com', 'phoned@example.com'].map((email) => shop.loginInit(email)));

        expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
        for (const answer of answers) {
          expect(Object.keys(answer.body).sort()).toEqual(['expiresIn', 'otpId', 'phoneMasked']);
          expect(answer.body.phoneMasked).toMatch(/^\+\*{7,9}\d{4}$/);
          expect(answer.body.expiresIn).toBe(300);
        }
      }));
  });

  describe(`floods from one client address never stop the owner from another (${kind})`, () => {
    test('100 sign-in starts and wrong codes from one address; the owner signs in from theirs', () =>
      withShop(kind, async (shop) => {
        shop.deps.settings = { ...shop.deps.settings, trustedProxyHeader: 'x-forwarded-for' };
        const seller = await shop.seller();
        await shop.api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: VICTIM.email } });
        const from = (address: string) => ({ 'x-forwarded-for': address });

        const flood = [];
        for (let i = 0; i < 100; i++) flood.push(await shop.api.call('POST', '/auth/login/init', { body: { email: VICTIM.email }, headers: from('203.0.113.66') }));
        const sent = flood.filter((r) => r.status === 200);
        expect(sent.length).toBeLessThanOrEqual(3);
        expect(flood.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(97);
        for (const reply of sent) {
          for (let i = 0; i < 5; i++) {
            await shop.api.call('POST', '/auth/login/verify', { body: { email: VICTIM.email, otpId: reply.body.otpId, otp: '000000', deviceFingerprint: 'x' }, headers: from('203.0.113.66') });
          }
        }

        const init = await shop.api.call('POST', '/auth/login/init', { body: { email: VICTIM.email }, headers: from('198.51.100.7') });
        expect(init.status).toBe(200);
        const otp = await shop.mailedCode(VICTIM.email);
        const verified = await shop.api.call('POST', '/auth/login/verify', { body: { email: VICTIM.email, otpId: init.body.otpId, otp, deviceFingerprint: 'owner' }, headers: from('198.51.100.7') });
        expect(verified.status).toBe(200);
        expect(verified.body.identityToken).toStartWith('idt_');
      }));
  });
}




