import type { TestApi } from '../support/http.ts';

const BUYER = { email: 'table.subscriber@example.com', phone: '+15551230000' };

/**
 * A buyer of a new monthly product of this (sandbox-connected) seller pays its checkout with the
 * sandbox Pay button; returns our id of the subscription it started.
 */
export async function aSandboxSubscription(api: TestApi, apiKey: string, buyer = BUYER): Promise<string> {
  const product = await api.call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro monthly', price: 900, currency: 'usd', interval: 'month' } });
  if (product.status !== 201) throw new Error(`monthly product: ${JSON.stringify(product.body)}`);
  const checkout = await api.call('POST', '/checkout/init', { key: apiKey, body: { productId: product.body.id } });
  if (checkout.status !== 201) throw new Error(`checkout init: ${JSON.stringify(checkout.body)}`);
  const form = new URLSearchParams({ ...buyer, cardNumber: '4242 4242 4242 4242' });
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const pay = await api.call('POST', `/sandbox/checkout/${checkout.body.sessionId}/pay`, { rawBody: form.toString(), headers });
  if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
  const status = await api.call('GET', `/checkout/status/${checkout.body.sessionId}`);
  const subscription = await api.deps.subscriptions.findByLicense(status.body.license.id);
  if (!subscription) throw new Error('the paid checkout started no subscription');
  return subscription.id;
}
