import { expect } from 'bun:test';
import { aPayment, sessionObject } from '../checkout/shop.ts';
import { CONNECTED_ACCOUNT, GOOD_CODE, signatureHeader, stripeEvent, type FakeStripe } from '../support/fake-stripe.ts';
import type { RunningServer } from '../support/server-process.ts';
import { BUYER, type Http } from './journey.ts';

/** The webhook secret the live-mode terminal tests start the service with. */
export const WEBHOOK_SECRET = 'whsec_twilio_e2e';

/** A seller connected to the fake Stripe with two products (live SMS starts only beside live payments). */
export async function stripeSeller(call: Http) {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Terminal Seller' } });
  const { apiKey, publishableKey } = signup.body;
  const pro = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro', price: 1999, currency: 'usd', features: ['pro'] } });
  const plus = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro Plus', price: 2999, currency: 'usd', features: ['plus'] } });
  const authorize = new URL((await call('POST', '/connect/start', { key: apiKey })).body.url);
  const callback = new URL(authorize.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', GOOD_CODE);
  callback.searchParams.set('state', authorize.searchParams.get('state')!);
  expect((await call('GET', `/connect/callback${callback.search}`)).status).toBe(200);
  return { apiKey: apiKey as string, publishableKey: publishableKey as string, pro: pro.body.id as string, plus: plus.body.id as string };
}

/** The buyer pays a Stripe checkout of Pro (the fake), which saves their card; the signed webhook completes it. */
export async function payAtStripe(call: Http, server: RunningServer, stripe: FakeStripe, seller: { apiKey: string; pro: string }) {
  const init = await call('POST', '/checkout/init', { key: seller.apiKey, body: { productId: seller.pro, email: BUYER.email } });
  const stripeId = new URL(init.body.checkoutUrl).pathname.split('/').pop()!;
  stripe.markPaid(stripeId, aPayment({ email: BUYER.email, phone: BUYER.phone, customerId: 'cus_terminal' }));
  const event = stripeEvent('checkout.session.completed', sessionObject(stripeId, init.body.sessionId), CONNECTED_ACCOUNT);
  const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
  const webhook = await fetch(`${server.url}/v1/webhooks/stripe-events`, { method: 'POST', headers: { 'stripe-signature': signature, 'content-type': 'application/json' }, body: event });
  expect(webhook.status).toBe(200);
}

