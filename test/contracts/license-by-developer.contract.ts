import { describe, expect, test } from 'bun:test';
import type { License } from '../../src/domain/license.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aLicense, aProduct, DAY, givenDeveloper, givenLicenseParties, T0, unique, bindMachine } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const newKeyHash = () => `hash_${unique()}`;
const ids = (page: { data: { id: string }[] }) => page.data.map((l) => l.id);

/** One developer's licenses for two customers (ann and bob) of one product; each stored. */
async function givenShop(store: Store) {
  const parties = await givenLicenseParties(store);
  const ann = parties.customerId;
  const bob = (await store.customers.findOrCreate(aCustomer({ email: `bob-${unique()}@example.com` }))).id;
  const create = async (customerId: string, overrides: Partial<License>) => {
    const license = aLicense({ ...parties, customerId }, overrides);
    await store.licenses.create(license, newKeyHash());
    return license;
  };
  return { parties, ann, bob, create };
}

export function licenseByDeveloperContract(factory: StoreFactory): void {
  describe(`LicenseRepository by developer on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test("a developer's licenses come newest first, ties by id descending, each with its customer's e-mail", async () => {
      const { store } = opened();
      const { ann, bob, create } = await givenShop(store);
      const oldest = await create(ann, { issuedAt: T0 });
      const tiedA = await create(bob, { id: `lic_a${unique()}`, issuedAt: T0 + DAY });
      const tiedB = await create(ann, { id: `lic_b${unique()}`, issuedAt: T0 + DAY, storedStatus: 'revoked' });
      const newest = await create(bob, { issuedAt: T0 + 2 * DAY, expiresAt: null });
      const bobEmail = (await store.customers.findById(bob))!.email;

      const page = await store.licenses.listByDeveloper(oldest.developerId, { limit: 10 });

      expect(ids(page)).toEqual([newest.id, tiedB.id, tiedA.id, oldest.id]);
      expect(page.hasMore).toBe(false);
      expect(page.data[0]).toEqual({ ...newest, customerEmail: bobEmail });
    });

    test('pages follow one another with limit and after, hasMore until the last', async () => {
      const { store } = opened();
      const { ann, create } = await givenShop(store);
      const made: License[] = [];
      for (let i = 0; i < 5; i++) made.push(await create(ann, { issuedAt: T0 + (i % 2) * DAY }));
      const developerId = made[0]!.developerId;

      const seen: string[] = [];
      let after: { issuedAt: number; id: string } | undefined;
      const hasMore: boolean[] = [];
      for (let n = 0; n < 3; n++) {
        const page = await store.licenses.listByDeveloper(developerId, { limit: 2, after });
        seen.push(...ids(page));
        hasMore.push(page.hasMore);
        const last = page.data.at(-1);
        after = last && { issuedAt: last.issuedAt, id: last.id };
      }

      const all = ids(await store.licenses.listByDeveloper(developerId, { limit: 10 }));
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(5);
      expect(hasMore).toEqual([true, true, false]);
    });

    test('the e-mail and product filters keep only their licenses', async () => {
      const { store } = opened();
      const { parties, ann, bob, create } = await givenShop(store);
      const annEmail = (await store.customers.findById(ann))!.email;
      const second = aProduct(parties.developerId);
      await store.products.create(second);
      const annFirst = await create(ann, { issuedAt: T0 });
      const annSecond = await create(ann, { issuedAt: T0 + 1, productId: second.id });
      const bobs = await create(bob, { issuedAt: T0 + 2 });

      const byEmail = await store.licenses.listByDeveloper(parties.developerId, { limit: 10, customerEmail: annEmail });
      const byProduct = await store.licenses.listByDeveloper(parties.developerId, { limit: 10, productId: parties.productId });
      const both = await store.licenses.listByDeveloper(parties.developerId, { limit: 10, productId: second.id, customerEmail: annEmail });
      const nobody = await store.licenses.listByDeveloper(parties.developerId, { limit: 10, customerEmail: 'nobody@example.com' });

      expect(ids(byEmail)).toEqual([annSecond.id, annFirst.id]);
      expect(ids(byProduct)).toEqual([bobs.id, annFirst.id]);
      expect(ids(both)).toEqual([annSecond.id]);
      expect(nobody).toEqual({ data: [], hasMore: false });
    });

    test("another developer's licenses are never listed, even for the same customer", async () => {
      const { store } = opened();
      const { parties, ann, create } = await givenShop(store);
      const mine = await create(ann, {});
      const { developer: other } = await givenDeveloper(store);
      const theirProduct = aProduct(other.id);
      await store.products.create(theirProduct);
      const theirs = aLicense({ developerId: other.id, productId: theirProduct.id, customerId: ann });
      await store.licenses.create(theirs, newKeyHash());

      expect(ids(await store.licenses.listByDeveloper(parties.developerId, { limit: 10 }))).toEqual([mine.id]);
      expect(ids(await store.licenses.listByDeveloper(other.id, { limit: 10 }))).toEqual([theirs.id]);
      expect(await store.licenses.listByDeveloper('dev_unknown', { limit: 10 })).toEqual({ data: [], hasMore: false });
    });

    test('the list shows bindings and revocations as stored now, as copies', async () => {
      const { store } = opened();
      const { parties, ann, create } = await givenShop(store);
      const license = await create(ann, {});
      await bindMachine(store, license.id, 'machine-1', T0 + 5);
      await store.licenses.update(license.id, { storedStatus: 'revoked' });

      const first = await store.licenses.listByDeveloper(parties.developerId, { limit: 1 });
      first.data[0]!.features.push('tampered');
      const again = await store.licenses.listByDeveloper(parties.developerId, { limit: 1 });

      expect(again.data[0]).toMatchObject({ id: license.id, machineFingerprint: 'machine-1', storedStatus: 'revoked', features: license.features });
    });
  });
}
