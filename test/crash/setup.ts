import { SANDBOX_CODE_PREFIX } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { expectStatus, randomHex, randomPhone, type Call } from './client.ts';

/** A buyer with a phone and a card saved with the seller (they paid once on the sandbox page). */
export interface Buyer {
  email: string;
  phone: string;
  device: string;
}

export interface Shop {
  apiKey: string;
  publishableKey: string;
  products: string[];
  /** Licenses granted by hand before the run: the first validations will race to bind them. */
  grants: { id: string; licenseKey: string }[];
  buyers: Buyer[];
}

export const PAYING_CARD = '4242 4242 4242 4242';

/**
 * A seller connected in sandbox mode (start, then the callback with a sandbox code), two products,
 * `grants` licenses, and `buyers` customers who each paid a checkout through the Pay form.
 */
export async function openShop(call: Call, counts: { grants: number; buyers: number }): Promise<Shop> {
  const signup = await expectStatus(call('POST', '/developers/signup', { body: { email: `crash-${randomHex(8)}@example.com`, name: 'Crash Seller' } }), 201, 'signup');
  const key = signup.apiKey as string;
  const products: string[] = [];
  for (const [name, extra] of [['Perpetual', {}], ['Yearly', { licenseDays: 365 }]] as const) {
    const body = { name, price: 1500, currency: 'usd', features: ['pro'], ...extra };
    products.push((await expectStatus(call('POST', '/developers/products', { key, body }), 201, 'product')).id);
  }
  const start = await expectStatus(call('POST', '/connect/start', { key }), 200, 'connect start');
  const state = new URL(start.url).searchParams.get('state')!;
  const query = new URLSearchParams({ code: `${SANDBOX_CODE_PREFIX}${randomHex(12)}`, state });
  await expectStatus(call('GET', `/connect/callback?${query}`), 200, 'connect callback');

  const grants = await Promise.all(
    Array.from({ length: counts.grants }, async (_, i) => {
      const body = { productId: products[i % 2], email: `granted-${i}@example.com` };
      const granted = await expectStatus(call('POST', '/developers/licenses', { key, body }), 201, 'grant');
      return { id: granted.license.id as string, licenseKey: granted.licenseKey as string };
    }),
  );
  const buyers: Buyer[] = [];
  for (let i = 0; i < counts.buyers; i++) {
    const buyer = { email: `buyer-${randomHex(6)}@example.com`, phone: randomPhone(), device: `device-${randomHex(8)}` };
    await payOnSandboxPage(call, key, products[0]!, buyer);
    buyers.push(buyer);
  }
  return { apiKey: key, publishableKey: signup.publishableKey, products, grants, buyers };
}

/** Checkout init, then the buyer presses Pay on the sandbox page: 303 to the success page. */
export async function payOnSandboxPage(call: Call, key: string, productId: string, buyer: { email: string; phone: string }) {
  const init = await expectStatus(call('POST', '/checkout/init', { key, body: { productId } }), 201, 'checkout init');
  const form = { email: buyer.email, phone: buyer.phone, cardNumber: PAYING_CARD };
  await expectStatus(call('POST', `/sandbox/checkout/${init.sessionId}/pay`, { form }), 303, 'sandbox pay');
  return init.sessionId as string;
}
