import { NEW_ORDER, type Order } from '../../src/domain/order.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aLicense, aProduct, givenLicenseParties, T0, unique } from './builders.ts';

export function anOrder(parties: { developerId: string; productId: string; customerId: string; licenseId: string }, overrides: Partial<Order> = {}): Order {
  const id = unique();
  return {
    id: `ord_${id}`,
    ...parties,
    source: 'checkout',
    sourceId: `cs_${id}`,
    amount: 4_900,
    currency: 'usd',
    processor: 'stripe',
    paymentId: `pi_${id}`,
    processorReference: `cs_test_${id}`,
    ...NEW_ORDER,
    createdAt: T0,
    ...overrides,
  };
}

/** A seller with a product, a customer and a license, and a way to store orders of that license (or another customer's). */
export async function givenOrderShop(store: Store) {
  const parties = await givenLicenseParties(store);
  const licenseOf = async (customerId: string, productId = parties.productId) => {
    const license = aLicense({ ...parties, productId, customerId });
    await store.licenses.create(license, `hash_${unique()}`);
    return license;
  };
  const license = await licenseOf(parties.customerId);
  const order = async (overrides: Partial<Order> = {}) => store.orders.record(anOrder({ ...parties, licenseId: license.id }, overrides));
  const newCustomer = async (email = `buyer-${unique()}@example.com`) => (await store.customers.findOrCreate(aCustomer({ email }))).id;
  const newProduct = async () => {
    const product = aProduct(parties.developerId);
    await store.products.create(product);
    return product.id;
  };
  return { parties, license, order, licenseOf, newCustomer, newProduct };
}
