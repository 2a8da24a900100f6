import { afterAll, describe, expect, test } from 'bun:test';
import { shopOn } from '../checkout/shop.ts';
import { freshStorePerTest, postgresStores, sqliteMemoryStores } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';
import { dieAfterWrite } from './idempotency-support.ts';

/**
 * A keyed refund whose process died: after the refund was recorded but before its answer was kept
 * (a store that skips saving the answer), or between Stripe's refund and its recording. A retry
 * with the key, however late, refunds nothing again. On SQLite and PostgreSQL, Stripe's local fake.
 */
const HOUR = 3_600_000;
const fake = await startFakeStripe();
afterAll(() => fake.stop());

for (const factory of [sqliteMemoryStores, postgresStores]) {
  describe(`${factory.name}: a keyed refund after a crash`, () => {
    const opened = freshStorePerTest(factory);

    async function sale() {
      const shop = await shopOn(depsFor(opened().store), { fake });
      expect((await shop.connect()).status).toBe(200);
      const { order, payment } = await shop.stripeSale();
      const key = `refund-${crypto.randomUUID()}`;
      const refund = (amount: number) =>
        shop.api.call('POST', `/developers/orders/${order.id}/refund`, { key: shop.dev.apiKey, headers: { 'Idempotency-Key': key }, body: { amount } });
      const refunds = () => fake.refunds.filter((r) => r.paymentIntentId === payment.paymentIntentId);
      const stored = async () => (await shop.api.deps.orders.findById(order.id))!;
      return { shop, order, refund, refunds, stored };
    }

    test('a partial refund that died after recording it is replayed an hour later, the order as it stands, not refunded again', async () => {
      const s = await sale();
      dieAfterWrite(s.shop);
      const first = await s.refund(500);
      s.shop.api.clock.advance(HOUR);

      const retries = await Promise.all([s.refund(500), s.refund(500)]);
      const kept = await s.refund(500);

      for (const retry of [...retries, kept]) {
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body).toEqual(first.body);
      }
      expect(first.body).toMatchObject({ status: 'paid', amountRefunded: 500 });
      expect((await s.stored()).amountRefunded).toBe(500);
      expect(s.refunds()).toHaveLength(1);
    });

    test('a refund that died between Stripe’s refund and its recording: the retry records it once, Stripe refunds nothing new', async () => {
      const s = await sale();
      const orders = s.shop.api.deps.orders;
      const record = orders.refund;
      orders.refund = async () => {
        orders.refund = record;
        throw new Error('killed');
      };
      dieAfterWrite(s.shop);
      await s.refund(500);
      s.shop.api.clock.advance(11_000);

      const retry = await s.refund(500);

      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ status: 'paid', amountRefunded: 500 });
      expect((await s.stored()).amountRefunded).toBe(500);
      expect(s.refunds()).toHaveLength(1);
    });

    test('a refund in full whose taking back failed after the recording: the retry finishes it, the license is revoked', async () => {
      const s = await sale();
      const licenses = s.shop.api.deps.licenses;
      const update = licenses.update;
      licenses.update = async () => {
        licenses.update = update;
        throw new Error('store lost');
      };
      const first = await s.refund(s.order.amount);

      const retry = await s.refund(s.order.amount);

      expect(first.status).toBe(500);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ status: 'refunded', amountRefunded: s.order.amount });
      expect((await licenses.findById(s.order.licenseId))!.storedStatus).toBe('revoked');
      expect(s.refunds()).toHaveLength(1);
    });
  });
}
