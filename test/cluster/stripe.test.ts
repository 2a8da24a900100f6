import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { aPayment, sessionObject } from '../checkout/shop.ts';
import { startFakeTwilio } from '../support/fake-twilio.ts';
import { CONNECTED_ACCOUNT, GOOD_CODE, signatureHeader, startFakeStripe, stripeEvent, type FakeStripe } from '../support/fake-stripe.ts';
import { aBuyer, confirmBuyerPhone, countOf, confirmOnBothInstances, licensesOf, newCode, purchaseReadyToConfirm, useService, type Buyer, type Http, type Service } from './cluster.ts';

/**
 * Two instances on one database, with Stripe (the local fake, shared): webhooks and charges happen once.
 * Live payments start only beside live SMS: codes travel through the fake Twilio.
 */

const WEBHOOK_SECRET = 'whsec_test';

/** A seller connected through the OAuth callback with the fake's good code, with one product. */
async function stripeSeller(call: Http) {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Stripe Seller' } });
  const { apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro', price: 1999, currency: 'usd', features: ['pro'] } });
  const authorize = new URL((await call('POST', '/connect/start', { key: apiKey })).body.url);
  const callback = new URL(authorize.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', GOOD_CODE);
  callback.searchParams.set('state', authorize.searchParams.get('state')!);
  expect((await call('GET', `/connect/callback${callback.search}`)).status).toBe(200);
  return { apiKey: apiKey as string, publishableKey: publishableKey as string, productId: product.body.id as string };
}

/** A checkout of the seller's product, paid at Stripe (the fake) with a card of its own, and its checkout.session.completed event. */
async function paidCheckout(service: Service, fake: FakeStripe, seller: { publishableKey: string; productId: string }, buyer: Buyer) {
  const init = await service.next()('POST', '/checkout/init', { key: seller.publishableKey, body: { productId: seller.productId, email: buyer.email } });
  expect(init.status).toBe(201);
  const stripeId = new URL(init.body.checkoutUrl).pathname.split('/').pop()!;
  const paymentMethod = `pm_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  fake.markPaid(stripeId, aPayment({ ...buyer, card: { id: paymentMethod, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } }));
  const event = stripeEvent('checkout.session.completed', sessionObject(stripeId, init.body.sessionId), CONNECTED_ACCOUNT);
  return { sessionId: init.body.sessionId as string, event };
}

/** POSTs the signed event to one instance, as Stripe delivers it. */
async function deliver(url: string, event: string) {
  const signature = await signatureHeader(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
  const response = await fetch(`${url}/v1/webhooks/stripe-events`, {
    method: 'POST',
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
    body: event,
  });
  return { status: response.status, body: await response.json() };
}

const DEVICE = 'cluster-stripe-device';

describe('two instances on one database, with Stripe', () => {
  let fake: FakeStripe;
  const twilio = startFakeTwilio();
  const texts = async (phone: string) => twilio.messages.filter((m) => m.to === phone).map((m, sentAt) => ({ body: m.body, sentAt }));
  // Before the service's own start-up hook: the instances need the fake's address.
  let smtp: SmtpSink;
  beforeAll(async () => {
    fake = await startFakeStripe();
    smtp = await startSmtpSink();
  });
  const service = useService(2, () => ({
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_CONNECT_CLIENT_ID: 'ca_test',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: '+15550009999',
    TWILIO_API_BASE: twilio.url,
    SMTP_URL: smtp.url,
  }), { inbox: texts });
  const urls = () => service.cluster().instances.map((instance) => instance.url);
  let seller: Awaited<ReturnType<typeof stripeSeller>>;

  beforeAll(async () => {
    seller = await stripeSeller(service.next());
  });

  afterAll(async () => {
    fake?.stop();
    twilio.stop();
    await smtp?.close();
  });

  test('the same webhook event delivered 5 times to each instance at once is processed once: one license, the rest are duplicates', async () => {
    // Arrange
    const buyer = aBuyer();
    const { sessionId, event } = await paidCheckout(service, fake, seller, buyer);

    // Act
    const replies = await Promise.all(urls().flatMap((url) => Array.from({ length: 5 }, () => deliver(url, event))));
    const statuses = await Promise.all(urls().map((url) => fetch(`${url}/v1/checkout/status/${sessionId}`).then((r) => r.json())));

    // Assert
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    expect(countOf(replies, (r) => r.body.duplicate === undefined)).toBe(1);
    expect(countOf(replies, (r) => r.body.received === true && r.body.duplicate === true)).toBe(9);
    const licenses = await licensesOf(service, buyer.email);
    expect(licenses).toHaveLength(1);
    for (const status of statuses) expect({ status: status.status, license: status.license?.id }).toEqual({ status: 'complete', license: licenses[0] });
  });

  test('a purchase confirmed concurrently on both instances creates exactly one PaymentIntent and one license', async () => {
    // Arrange: a buyer whose card the Stripe checkout saved, who confirmed its phone, signed in by SMS code (the fake Twilio), a purchase ready to confirm.
    const buyer = aBuyer();
    const { event } = await paidCheckout(service, fake, seller, buyer);
    expect((await deliver(urls()[0]!, event)).body).toEqual({ received: true });
    await confirmBuyerPhone(service, buyer, (email) => smtp.to(email));
    const { result: login, code: loginCode } = await newCode(service, buyer.phone, () => service.on(0)('POST', '/auth/login/init', { body: { email: buyer.email } }));
    const verified = await service.on(1)('POST', '/auth/login/verify', { body: { email: buyer.email, otpId: login.body.otpId, otp: loginCode, deviceFingerprint: DEVICE } });
    const token = verified.body.identityToken as string;
    const body = await purchaseReadyToConfirm(service, token, seller.productId, buyer.phone);
    const { purchaseId } = body;

    // Act and assert: 2 confirms on each instance at once all answer with the one license.
    const licenseId = await confirmOnBothInstances(service, token, body);
    const intents = fake.intents.filter((i) => (i.params.metadata as Record<string, string> | undefined)?.purchase_id === purchaseId);
    expect(intents.map((i) => i.status)).toEqual(['succeeded']);
    const ofPurchase = await service.db.query<{ id: string }>('SELECT id FROM licenses WHERE purchase_id = $1', [purchaseId]);
    expect(ofPurchase).toEqual([{ id: licenseId }]);
  });
});
