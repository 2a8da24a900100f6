import { describe, expect, test } from 'bun:test';
import type { Product } from '../../src/domain/product.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aProduct, givenDeveloper, T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

async function givenProducts(store: Store, developerId: string, count: number): Promise<Product[]> {
  const products = Array.from({ length: count }, (_, i) => aProduct(developerId, { name: `Product ${i}`, createdAt: T0 + i }));
  // Stored out of order: the order of the list must come from (createdAt, id), not from insertion.
  for (const product of [...products].reverse()) await store.products.create(product);
  return products;
}

export function productRepositoryContract(factory: StoreFactory): void {
  describe(`ProductRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a product reads back field for field, including empty features, perpetual terms and inactive', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const plain = aProduct(developer.id);
      const unusual = aProduct(developer.id, { features: [], licenseDays: null, active: false, price: 0, updatedAt: T0 + 9 });

      await store.products.create(plain);
      await store.products.create(unusual);

      expect(await store.products.get(developer.id, plain.id)).toEqual(plain);
      expect(await store.products.get(developer.id, unusual.id)).toEqual(unusual);
    });

    test("another developer's product is null, as is an unknown id", async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      const theirs = await givenDeveloper(store);
      const product = aProduct(theirs.developer.id);
      await store.products.create(product);

      expect(await store.products.get(mine.developer.id, product.id)).toBeNull();
      expect(await store.products.get(mine.developer.id, 'prod_unknown')).toBeNull();
    });

    test('a product of an unknown developer, or with an id in use, is refused', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const product = aProduct(developer.id);
      await store.products.create(product);

      await expect(store.products.create(aProduct('dev_unknown'))).rejects.toThrow();
      await expect(store.products.create({ ...product, name: 'Twin' })).rejects.toThrow();
      expect(await store.products.get(developer.id, product.id)).toEqual(product);
    });

    test('the list is oldest first, ties broken by id', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const late = aProduct(developer.id, { id: 'prod_a', createdAt: T0 + 5 });
      const tieB = aProduct(developer.id, { id: 'prod_c', createdAt: T0 });
      const tieA = aProduct(developer.id, { id: 'prod_b', createdAt: T0 });
      for (const p of [late, tieB, tieA]) await store.products.create(p);

      const page = await store.products.list(developer.id, { limit: 10 });

      expect(page).toEqual({ data: [tieA, tieB, late], hasMore: false });
    });

    test('pages follow startingAfter with limit and say whether more remain', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const products = await givenProducts(store, developer.id, 5);

      const first = await store.products.list(developer.id, { limit: 2 });
      const second = await store.products.list(developer.id, { limit: 2, startingAfter: first.data[1]!.id });
      const last = await store.products.list(developer.id, { limit: 2, startingAfter: second.data[1]!.id });

      expect(first).toEqual({ data: products.slice(0, 2), hasMore: true });
      expect(second).toEqual({ data: products.slice(2, 4), hasMore: true });
      expect(last).toEqual({ data: products.slice(4), hasMore: false });
    });

    test('a page that ends exactly at the last product has no more', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const products = await givenProducts(store, developer.id, 4);

      const page = await store.products.list(developer.id, { limit: 2, startingAfter: products[1]!.id });

      expect(page).toEqual({ data: products.slice(2), hasMore: false });
    });

    test("the list holds only the developer's own products", async () => {
      const { store } = opened();
      const mine = await givenDeveloper(store);
      const theirs = await givenDeveloper(store);
      const own = await givenProducts(store, mine.developer.id, 2);
      await givenProducts(store, theirs.developer.id, 3);
      const empty = await givenDeveloper(store);

      expect(await store.products.list(mine.developer.id, { limit: 10 })).toEqual({ data: own, hasMore: false });
      expect(await store.products.list(empty.developer.id, { limit: 10 })).toEqual({ data: [], hasMore: false });
    });

    test('an update replaces every changeable field and keeps createdAt', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const product = aProduct(developer.id);
      await store.products.create(product);
      const changed: Product = {
        ...product,
        name: 'Renamed',
        price: 9_900,
        currency: 'eur',
        features: ['export'],
        licenseDays: null,
        active: false,
        createdAt: T0 + 777,
        updatedAt: T0 + 1_000,
      };

      await store.products.update(changed);

      expect(await store.products.get(developer.id, product.id)).toEqual({ ...changed, createdAt: product.createdAt });
    });

    test("an update naming another developer leaves the owner's product unchanged", async () => {
      const { store } = opened();
      const owner = await givenDeveloper(store);
      const intruder = await givenDeveloper(store);
      const product = aProduct(owner.developer.id);
      await store.products.create(product);

      await store.products.update({ ...product, developerId: intruder.developer.id, name: 'Hijacked' });

      expect(await store.products.get(owner.developer.id, product.id)).toEqual(product);
      expect(await store.products.get(intruder.developer.id, product.id)).toBeNull();
    });

    test('products are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const { developer } = await givenDeveloper(store);
      const product = aProduct(developer.id);
      const expected = structuredClone(product);
      await store.products.create(product);
      product.features.push('added after create');

      const read = (await store.products.get(developer.id, product.id))!;
      read.features.push('added after read');
      (await store.products.list(developer.id, { limit: 1 })).data[0]!.name = 'renamed after list';

      expect(await store.products.get(developer.id, product.id)).toEqual(expected);
    });
  });
}
