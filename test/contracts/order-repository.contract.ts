import { describe, expect, test } from 'bun:test';
import { DAY, givenLicenseParties, T0, unique } from './builders.ts';
import { anOrder, givenOrderShop } from './order-builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const ids = (page: { data: { id: string }[] }) => page.data.map((o) => o.id);

export function orderRepositoryContract(factory: StoreFactory): void {
  describe(`OrderRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('an order reads back field for field', async () => {
      const { store } = opened();
      const { order } = await givenOrderShop(store);

      const recorded = await order({ amount: 500, currency: 'jpy', processor: 'sandbox', paymentId: null, processorReference: null });

      expect(await store.orders.findById(recorded.id)).toEqual(recorded);
      expect(recorded).toMatchObject({ amount: 500, currency: 'jpy', processor: 'sandbox', paymentId: null, status: 'paid' });
    });

    test('a second record of the same source writes nothing and returns the order stored first', async () => {
      const { store } = opened();
      const { order } = await givenOrderShop(store);
      const first = await order({ sourceId: 'cs_same' });

      const second = await order({ sourceId: 'cs_same', amount: 1 });

      expect(second).toEqual(first);
      expect(await store.orders.findById(second.id)).toEqual(first);
      expect((await store.orders.listByDeveloper(first.developerId, { limit: 10 })).data).toHaveLength(1);
    });

    test('20 concurrent records of one source leave exactly one order, and every caller gets it', async () => {
      const { store, connectAgain } = opened();
      const { parties, license } = await givenOrderShop(store);
      const other = await connectAgain();
      const sourceId = `cs_${unique()}`;

      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).orders.record(anOrder({ ...parties, licenseId: license.id }, { sourceId }))),
      );

      expect(new Set(results.map((o) => o.id)).size).toBe(1);
      expect(ids(await store.orders.listByDeveloper(parties.developerId, { limit: 50 }))).toEqual([results[0]!.id]);
    });

    test('an unknown developer, customer or product is refused', async () => {
      const { store } = opened();
      const { parties, license } = await givenOrderShop(store);
      const base = { ...parties, licenseId: license.id };

      for (const wrong of [{ developerId: 'dev_unknown' }, { customerId: 'cus_unknown' }, { productId: 'prod_unknown' }]) {
        await expect(store.orders.record(anOrder({ ...base, ...wrong }))).rejects.toThrow();
      }
      expect(await store.orders.listByDeveloper(parties.developerId, { limit: 10 })).toEqual({ data: [], hasMore: false });
    });

    test('refund raises the refunded total, never past the amount nor down; refunded once all of it went back', async () => {
      const { store } = opened();
      const { order } = await givenOrderShop(store);
      const paid = await order({ amount: 900 });
      const untouched = await order();

      expect(await store.orders.refund(paid.id, 300, T0 + DAY)).toEqual({ ...paid, amountRefunded: 300, refundedAt: T0 + DAY });
      expect(await store.orders.refund(paid.id, 200, T0 + 2 * DAY)).toBeNull(); // a late, lower report
      expect(await store.orders.refund(paid.id, 300, T0 + 2 * DAY)).toBeNull(); // a repeat
      expect(await store.orders.refund(paid.id, 5_000, T0 + 3 * DAY)).toEqual({ ...paid, amountRefunded: 900, status: 'refunded', refundedAt: T0 + 3 * DAY });
      expect(await store.orders.refund(paid.id, 9_000, T0 + 4 * DAY)).toBeNull();
      expect(await store.orders.refund('ord_unknown', 100, T0)).toBeNull();

      expect(await store.orders.findById(untouched.id)).toEqual(untouched);
    });

    test('with expectRefunded, a refund is recorded only from that state', async () => {
      const { store } = opened();
      const { order } = await givenOrderShop(store);
      const paid = await order({ amount: 900 });

      expect(await store.orders.refund(paid.id, 400, T0, 100)).toBeNull();
      expect(await store.orders.refund(paid.id, 400, T0, 0)).toMatchObject({ amountRefunded: 400, status: 'paid' });
      expect(await store.orders.refund(paid.id, 900, T0, 0)).toBeNull();
    });

    test('concurrent refunds of one order from one state: exactly one is recorded', async () => {
      const { store, connectAgain } = opened();
      const { order } = await givenOrderShop(store);
      const other = await connectAgain();
      const paid = await order({ paymentId: 'pi_race' });

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).orders.refund(paid.id, paid.amount, T0 + i, 0)));

      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    test('an order is found by its payment, its source and its license', async () => {
      const { store } = opened();
      const { order, license } = await givenOrderShop(store);
      const first = await order({ paymentId: 'pi_found', createdAt: T0 });
      const second = await order({ paymentId: null, createdAt: T0 + DAY });

      expect(await store.orders.findByPayment('pi_found')).toEqual([first]);
      expect(await store.orders.findByPayment('pi_unknown')).toEqual([]);
      expect(await store.orders.findBySource(second.sourceId)).toEqual(second);
      expect(await store.orders.findByLicense(license.id)).toEqual([first, second]);
    });

    test("a seller's orders come newest first, ties by id descending, each with its customer's e-mail", async () => {
      const { store } = opened();
      const { parties, order } = await givenOrderShop(store);
      const oldest = await order({ createdAt: T0 });
      const tiedA = await order({ id: `ord_a${unique()}`, createdAt: T0 + DAY });
      const tiedB = await order({ id: `ord_b${unique()}`, createdAt: T0 + DAY });
      const newest = await order({ createdAt: T0 + 2 * DAY });
      const email = (await store.customers.findById(parties.customerId))!.email;

      const page = await store.orders.listByDeveloper(parties.developerId, { limit: 10 });

      expect(ids(page)).toEqual([newest.id, tiedB.id, tiedA.id, oldest.id]);
      expect(page.data[0]).toEqual({ ...newest, customerEmail: email });
    });

    test('pages follow one another with limit and after, hasMore until the last', async () => {
      const { store } = opened();
      const { parties, order } = await givenOrderShop(store);
      for (let i = 0; i < 5; i++) await order({ createdAt: T0 + (i % 2) * DAY });
      const all = ids(await store.orders.listByDeveloper(parties.developerId, { limit: 10 }));

      const seen: string[] = [];
      let after: { createdAt: number; id: string } | undefined;
      for (;;) {
        const page = await store.orders.listByDeveloper(parties.developerId, { limit: 2, after });
        seen.push(...ids(page));
        if (!page.hasMore) break;
        const last = page.data.at(-1)!;
        after = { createdAt: last.createdAt, id: last.id };
      }

      expect(seen).toEqual(all);
      expect(all).toHaveLength(5);
    });

    test('filters: product, status, customer e-mail and a created range [from, before), combined', async () => {
      const { store } = opened();
      const { parties, order, licenseOf, newCustomer, newProduct } = await givenOrderShop(store);
      const otherProduct = await newProduct();
      const bobEmail = `bob-${unique()}@example.com`;
      const bob = await newCustomer(bobEmail);
      const bobLicense = await licenseOf(bob, otherProduct);
      const first = await order({ createdAt: T0 });
      const refunded = await order({ createdAt: T0 + DAY, status: 'refunded', refundedAt: T0 + 2 * DAY });
      const bobs = await order({ customerId: bob, productId: otherProduct, licenseId: bobLicense.id, createdAt: T0 + 2 * DAY });
      const list = async (q: object) => ids(await store.orders.listByDeveloper(parties.developerId, { limit: 10, ...q }));

      expect(await list({ productId: otherProduct })).toEqual([bobs.id]);
      expect(await list({ status: 'refunded' })).toEqual([refunded.id]);
      expect(await list({ status: 'paid' })).toEqual([bobs.id, first.id]);
      expect(await list({ customerEmail: bobEmail })).toEqual([bobs.id]);
      expect(await list({ customerEmail: 'nobody@example.com' })).toEqual([]);
      expect(await list({ createdFrom: T0 + DAY })).toEqual([bobs.id, refunded.id]);
      expect(await list({ createdBefore: T0 + DAY })).toEqual([first.id]);
      expect(await list({ createdFrom: T0 + DAY, createdBefore: T0 + 2 * DAY })).toEqual([refunded.id]);
      expect(await list({ productId: parties.productId, status: 'paid' })).toEqual([first.id]);
    });

    test("another seller's orders are never listed, even for the same customer", async () => {
      const { store } = opened();
      const { parties, order } = await givenOrderShop(store);
      const mine = await order();
      const otherSeller = await givenLicenseParties(store);
      const theirs = await store.orders.record(
        anOrder({ ...otherSeller, customerId: parties.customerId, licenseId: `lic_${unique()}` }),
      );
      const email = (await store.customers.findById(parties.customerId))!.email;

      expect(ids(await store.orders.listByDeveloper(parties.developerId, { limit: 10 }))).toEqual([mine.id]);
      expect(ids(await store.orders.listByDeveloper(parties.developerId, { limit: 10, customerEmail: email }))).toEqual([mine.id]);
      expect(ids(await store.orders.listByDeveloper(otherSeller.developerId, { limit: 10 }))).toEqual([theirs.id]);
      expect(await store.orders.listByDeveloper('dev_unknown', { limit: 10 })).toEqual({ data: [], hasMore: false });
    });
    test('a reversal is kept per payment and account before any order: the total only rises, all stays, an invoice once named stays', async () => {
      const { store } = opened();
      const pi = `pi_${unique()}`;
      const base = { accountId: 'acct_a', paymentId: pi, invoiceId: null };

      await store.orders.recordReversal({ ...base, refunded: 300 }, T0);
      await store.orders.recordReversal({ ...base, refunded: 200, invoiceId: 'in_1' }, T0 + 1);
      expect(await store.orders.reversalsOf(pi, null)).toEqual([{ ...base, invoiceId: 'in_1', refunded: 300 }]);
      await store.orders.recordReversal({ ...base, refunded: 'all' }, T0 + 2);
      await store.orders.recordReversal({ ...base, refunded: 900 }, T0 + 3);
      await store.orders.recordReversal({ ...base, accountId: null, refunded: 100 }, T0 + 4);

      const byInvoice = await store.orders.reversalsOf(null, 'in_1');
      expect(byInvoice).toEqual([{ ...base, invoiceId: 'in_1', refunded: 'all' }]);
      expect((await store.orders.reversalsOf(pi, 'in_1')).map((r) => r.accountId).sort()).toEqual(['acct_a', null].sort());
      expect(await store.orders.reversalsOf(null, null)).toEqual([]);
      expect(await store.orders.reversalsOf('pi_other', 'in_other')).toEqual([]);
    });
  });
}
