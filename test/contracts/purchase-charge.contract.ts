import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../src/domain/errors.ts';
import { CHARGE_TAKEOVER_MS } from '../../src/domain/purchase.ts';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { givenPurchase } from './terminal-builders.ts';

const AT = T0 + 5 * 60_000;
const STALE_BEFORE = AT - CHARGE_TAKEOVER_MS;

export function purchaseChargeContract(factory: StoreFactory): void {
  describe(`PurchaseRepository charge attempts on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a pending purchase starts charging: attempt 1, since now, with the chosen card', async () => {
      const { store } = opened();
      const { purchase, card } = await givenPurchase(store);

      const result = await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);

      const charging = { ...purchase, status: 'charging' as const, attempt: 1, chargingSince: AT, cardId: card.id };
      expect(result).toEqual({ started: true, purchase: charging });
      expect(await store.purchases.findById(purchase.id)).toEqual(charging);
    });

    test('a purchase charging recently starts nothing, and the attempt under way is returned', async () => {
      const { store } = opened();
      const { purchase, card, otherCard } = await givenPurchase(store);
      const { purchase: charging } = await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);

      const rival = await store.purchases.beginCharge(purchase.id, otherCard.id, AT + 1_000, STALE_BEFORE + 1_000);

      expect(rival).toEqual({ started: false, purchase: charging });
    });

    test('an attempt charging since exactly staleBefore is not yet stale', async () => {
      const { store } = opened();
      const { purchase, card } = await givenPurchase(store);
      const { purchase: charging } = await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);

      const rival = await store.purchases.beginCharge(purchase.id, card.id, AT + CHARGE_TAKEOVER_MS, AT);

      expect(rival).toEqual({ started: false, purchase: charging });
    });

    test('a stale attempt is taken over: same attempt number, since now, with the new card', async () => {
      const { store } = opened();
      const { purchase, card, otherCard } = await givenPurchase(store);
      const { purchase: abandoned } = await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);
      const later = AT + CHARGE_TAKEOVER_MS + 1;

      const takeover = await store.purchases.beginCharge(purchase.id, otherCard.id, later, later - CHARGE_TAKEOVER_MS);

      const resumed = { ...abandoned, chargingSince: later, cardId: otherCard.id };
      expect(takeover).toEqual({ started: true, purchase: resumed });
      expect(await store.purchases.findById(purchase.id)).toEqual(resumed);
    });

    test('10 concurrent starts across two connections: exactly one starts, all see attempt 1', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { purchase, card } = await givenPurchase(store);

      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).purchases.beginCharge(purchase.id, card.id, AT + i, STALE_BEFORE)),
      );

      expect(results.filter((r) => r.started)).toHaveLength(1);
      const winner = results.findIndex((r) => r.started);
      for (const { purchase: seen } of results) expect(seen).toEqual({ ...purchase, status: 'charging', attempt: 1, chargingSince: AT + winner, cardId: card.id });
    });

    test('a declined attempt makes the purchase pending again, and the next start is attempt 2', async () => {
      const { store } = opened();
      const { purchase, card, otherCard } = await givenPurchase(store);
      await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);

      await store.purchases.chargeFailed(purchase.id, 1);
      const afterDecline = await store.purchases.findById(purchase.id);
      const retry = await store.purchases.beginCharge(purchase.id, otherCard.id, AT + 10, STALE_BEFORE + 10);

      expect(afterDecline).toEqual({ ...purchase, status: 'pending', attempt: 1, chargingSince: null, cardId: card.id });
      expect(retry).toEqual({ started: true, purchase: { ...purchase, status: 'charging', attempt: 2, chargingSince: AT + 10, cardId: otherCard.id } });
    });

    test('chargeFailed for another attempt number changes nothing', async () => {
      const { store } = opened();
      const { purchase, card } = await givenPurchase(store);
      await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);
      await store.purchases.chargeFailed(purchase.id, 1);
      const { purchase: second } = await store.purchases.beginCharge(purchase.id, card.id, AT + 10, STALE_BEFORE + 10);

      await store.purchases.chargeFailed(purchase.id, 1);

      expect(await store.purchases.findById(purchase.id)).toEqual(second);
    });

    test('chargeFailed changes nothing unless the purchase is charging', async () => {
      const { store } = opened();
      const { purchase: pending } = await givenPurchase(store);
      const { purchase, card } = await givenPurchase(store);
      await store.purchases.beginCharge(purchase.id, card.id, AT, STALE_BEFORE);
      await store.purchases.markPaid(purchase.id, { paymentId: 'pi_paid', licenseId: 'lic_paid' });
      const paid = await store.purchases.findById(purchase.id);

      await store.purchases.chargeFailed(pending.id, 0);
      await store.purchases.chargeFailed(purchase.id, 1);

      expect(await store.purchases.findById(pending.id)).toEqual(pending);
      expect(await store.purchases.findById(purchase.id)).toEqual(paid);
    });

    test('starting a charge for an unknown purchase is not_found', async () => {
      const { store } = opened();
      const { card } = await givenPurchase(store);

      const error = await store.purchases.beginCharge('pur_unknown', card.id, AT, STALE_BEFORE).catch((e: DomainError) => e);

      expect((error as DomainError).code).toBe('not_found');
    });

    test('starting a charge with an unknown card is refused and leaves the purchase pending', async () => {
      const { store } = opened();
      const { purchase } = await givenPurchase(store);

      await expect(store.purchases.beginCharge(purchase.id, 'card_unknown', AT, STALE_BEFORE)).rejects.toThrow();

      expect(await store.purchases.findById(purchase.id)).toEqual(purchase);
    });
  });
}
