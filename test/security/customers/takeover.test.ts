import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { maskPhone } from '../../../src/domain/phone.ts';
import { startFakeStripe, type FakeStripe } from '../../support/fake-stripe.ts';
import { expectError } from '../../terminal/terminal.ts';
import { openBuyerShop, STORES, type Buyer, type BuyerShop, type Mode } from './buyer-shop.ts';

/**
 * Issue 9, critical: customers are global by e-mail, and a checkout used to replace the phone on
 * file with whatever phone it brought. Buying anything with a victim's e-mail and one's own phone
 * then took over the victim's SMS sign-in: every license key, and off-session charges on the
 * victim's saved cards. A checkout proves a card, not an e-mail: it may give a first phone, never
 * replace one, and a saved card exists only for a sign-in through the phone its checkout brought.
 */

const VICTIM: Buyer = { email: 'victim@example.com', phone: '+15550001111', card: '4242 4242 4242 4242' };
/** The attacker types the victim's e-mail, their own phone, and pays with their own card. */
const ATTACKER: Buyer = { email: VICTIM.email, phone: '+15559992222', card: '4000 0566 5566 5556' };

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.stop());

const MODES: Mode[] = ['sandbox', 'stripe'];

async function withShop(kind: (typeof STORES)[number], mode: Mode, run: (shop: BuyerShop) => Promise<void>) {
  const shop = await openBuyerShop(kind, mode, fake);
  try {
    await run(shop);
  } finally {
    await shop.dispose();
  }
}

for (const kind of STORES) {
  for (const mode of MODES) {
    describe(`buyer account takeover through checkout fails (${kind}, ${mode})`, () => {
      test('a checkout with the victim’s e-mail and another phone leaves sign-in codes going to the victim’s phone', () =>
        withShop(kind, mode, async (shop) => {
          const victimsSeller = await shop.seller();
          const anySeller = await shop.seller('Anything');
          await shop.checkout(victimsSeller, VICTIM);
          await shop.login(VICTIM.email, VICTIM.phone); // the victim confirmed their phone

          await shop.checkout(anySeller, ATTACKER);
          await shop.checkout(victimsSeller, ATTACKER);
          const textsBefore = (await shop.outbox(VICTIM.phone)).length;

          const init = await shop.loginInit(VICTIM.email);
          expect(init.status).toBe(200);
          expect(init.body.phoneMasked).toBe(maskPhone(VICTIM.phone));
          expect(await shop.outbox(VICTIM.phone)).toHaveLength(textsBefore + 1);
          expect(await shop.outbox(ATTACKER.phone)).toEqual([]);
          expect((await shop.deps.customers.findByEmail(VICTIM.email))!.phone).toBe(VICTIM.phone);
        }));

      test('the cards the attacker’s checkouts saved are offered to nobody, and cannot be charged (404, as an unknown card)', () =>
        withShop(kind, mode, async (shop) => {
          const victimsSeller = await shop.seller();
          const anySeller = await shop.seller('Anything');
          await shop.checkout(victimsSeller, VICTIM);
          await shop.checkout(victimsSeller, ATTACKER);
          await shop.checkout(anySeller, ATTACKER);
          const attackersCards = (await shop.storedCards(VICTIM.email)).filter((c) => c.phone === ATTACKER.phone);
          expect(attackersCards).toHaveLength(2);

          const token = await shop.login(VICTIM.email, VICTIM.phone);
          const atVictimsSeller = await shop.offeredCards(token, victimsSeller);
          const atAnySeller = await shop.offeredCards(token, anySeller);

          expect(atVictimsSeller.cards.map((c) => c.last4)).toEqual(['4242']);
          expect(atAnySeller.cards).toEqual([]);
          const stray = attackersCards.find((c) => c.developerId === anySeller.developerId)!;
          expectError(await shop.confirmWith(token, atAnySeller.purchaseId, stray.id, VICTIM.phone), 404, 'not_found');
        }));
    });
  }
}

for (const kind of STORES) {
  describe(`who may set the phone on file (${kind})`, () => {
    test('the same card paid again with the victim’s e-mail and another phone keeps the card the victim’s (sandbox: the same payment method)', () =>
      withShop(kind, 'sandbox', async (shop) => {
        const seller = await shop.seller();
        await shop.checkout(seller, VICTIM);

        await shop.checkout(seller, { ...ATTACKER, card: VICTIM.card });

        const [card] = await shop.storedCards(VICTIM.email);
        expect(card!.phone).toBe(VICTIM.phone);
        const token = await shop.login(VICTIM.email, VICTIM.phone);
        expect((await shop.offeredCards(token, seller)).cards.map((c) => c.last4)).toEqual(['4242']);
      }));

    test('a seller-granted customer (no phone): checkouts give no phone; sign-in codes go by e-mail', () =>
      withShop(kind, 'sandbox', async (shop) => {
        const seller = await shop.seller();
        const granted = await shop.api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: 'beta@example.com' } });
        expect(granted.status).toBe(201);

        await shop.checkout(seller, { email: 'beta@example.com', phone: '+15550003333', card: VICTIM.card });
        await shop.checkout(seller, { email: 'beta@example.com', phone: '+15550004444', card: ATTACKER.card });

        const init = await shop.loginInit('beta@example.com');
        expect(init.body.phoneMasked).not.toBe(maskPhone('+15550003333'));
        expect(await shop.outbox('+15550003333')).toEqual([]);
        expect(await shop.outbox('+15550004444')).toEqual([]);
        expect(await shop.mailedCode('beta@example.com')).toMatch(/^\d{6}$/);
      }));

    test('a card saved by a checkout whose phone is not the confirmed phone is not offered to the signed-in owner', () =>
      withShop(kind, 'sandbox', async (shop) => {
        // The seller granted a license to an e-mail; someone's checkout brought phone A first, then
        // another checkout phone B. The owner proves the e-mail and confirms phone A.
        const seller = await shop.seller();
        await shop.api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: 'unproven@example.com' } });
        const first: Buyer = { email: 'unproven@example.com', phone: '+15550005555', card: '5555 5555 5555 4444' };
        const owner: Buyer = { email: 'unproven@example.com', phone: '+15550006666', card: VICTIM.card };
        await shop.checkout(seller, first);
        await shop.checkout(seller, owner);
        const ownersCard = (await shop.storedCards(owner.email)).find((c) => c.last4 === '4242')!;

        const token = await shop.login(first.email, first.phone);
        const offer = await shop.offeredCards(token, seller);

        expect(offer.cards.map((c) => c.last4)).toEqual(['4444']);
        expectError(await shop.confirmWith(token, offer.purchaseId, ownersCard.id, first.phone), 404, 'not_found');
        expect(await shop.outbox(owner.phone)).toEqual([]);
      }));
  });
}
