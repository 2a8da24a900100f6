import { expect } from 'bun:test';
import { StripeProcessor } from '../../../src/adapters/stripe/stripe-processor.ts';
import { CONNECT_CLIENT_ID, completedEvent, deliver, SANDBOX_CODE, SECRET_KEY, WEBHOOK_SECRET } from '../../checkout/shop.ts';
import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../../contracts/stores.ts';
import { depsFor } from '../../support/deps.ts';
import { GOOD_CODE, type FakeStripe } from '../../support/fake-stripe.ts';
import { testApi, type Reply } from '../../support/http.ts';
import * as codes from '../../support/sign-in.ts';

/**
 * The HTTP app over a real store (a SQLite file or a fresh PostgreSQL schema), in sandbox mode or
 * with the Stripe processor against the local fake. Buyers pay real checkouts: the sandbox Pay form,
 * or a Stripe session the fake marks paid followed by its signed checkout.session.completed event.
 * Codes are read from the sandbox SMS outbox and the sandbox mail.
 */

export type StoreKind = 'sqlite' | 'postgres';
export type Mode = 'sandbox' | 'stripe';

export interface Buyer {
  email: string;
  phone: string;
  /** A card number for the sandbox form; its last four digits name the card in Stripe mode. */
  card: string;
}

export const STORES: StoreKind[] = ['sqlite', 'postgres'];

export async function openBuyerShop(kind: StoreKind, mode: Mode = 'sandbox', fake?: FakeStripe) {
  const opened: TestStore = kind === 'sqlite' ? await openSqliteTestStore() : await openPostgresTestStore();
  const deps = depsFor(opened.store);
  if (mode === 'stripe') {
    if (!fake) throw new Error('stripe mode needs the fake');
    deps.processor = new StripeProcessor({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, connectClientId: CONNECT_CLIENT_ID, apiBase: fake.url, clock: deps.clock });
  }
  const api = testApi({ deps });
  const DEVICE = 'device-1';
  const bearer = (token: string) => codes.customerAuth(token, DEVICE);

  const sellers: string[] = [];
  /** A seller who signed up, made a product and connected a payment account. */
  const seller = async (name = 'Pro') => {
    const signup = await api.call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Seller' } });
    expect(signup.status).toBe(201);
    const apiKey = signup.body.apiKey as string;
    const product = await api.call('POST', '/developers/products', { key: apiKey, body: { name, price: 1999, currency: 'usd', features: ['pro'] } });
    const start = await api.call('POST', '/connect/start', { key: apiKey });
    const state = new URL(start.body.url).searchParams.get('state')!;
    const callback = await api.call('GET', `/connect/callback?${new URLSearchParams({ code: mode === 'stripe' ? GOOD_CODE : SANDBOX_CODE, state })}`);
    expect(callback.status).toBe(200);
    const made = { developerId: signup.body.id as string, apiKey, productId: product.body.id as string };
    sellers.push(made.developerId);
    return made;
  };

  /** Pays a checkout of the seller's product as this buyer; the session ends complete. */
  const checkout = async (shop: { apiKey: string; productId: string }, buyer: Buyer) => {
    const init = await api.call('POST', '/checkout/init', { key: shop.apiKey, body: { productId: shop.productId } });
    expect(init.status).toBe(201);
    const sessionId = init.body.sessionId as string;
    if (mode === 'sandbox') {
      const form = new URLSearchParams({ email: buyer.email, phone: buyer.phone, cardNumber: buyer.card });
      const pay = await api.call('POST', `/sandbox/checkout/${sessionId}/pay`, {
        rawBody: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(pay.status).toBe(303);
    } else {
      const stripeId = (await deps.checkouts.findById(sessionId))!.processorSessionId!;
      const digits = buyer.card.replace(/\D/g, '');
      fake!.markPaid(stripeId, {
        email: buyer.email,
        phone: buyer.phone,
        customerId: `cus_${crypto.randomUUID().slice(0, 8)}`,
        paymentIntentId: `pi_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`,
        card: { id: `pm_${digits}_${crypto.randomUUID().slice(0, 8)}`, brand: 'visa', last4: digits.slice(-4), expMonth: 12, expYear: 2030 },
      });
      expect((await deliver(api, completedEvent(stripeId, sessionId))).status).toBe(200);
    }
    expect((await api.call('GET', `/checkout/status/${sessionId}`)).body.status).toBe('complete');
    return sessionId;
  };

  const outbox = async (phone: string) => {
    const reply = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
    expect(reply.status).toBe(200);
    return reply.body.data as { to: string; body: string; sentAt: number }[];
  };
  /** The code in the newest message to this phone. */
  const latestCode = async (phone: string) => {
    const [newest] = await outbox(phone);
    const code = newest && /\b(\d{6})\b/.exec(newest.body)?.[1];
    if (!code) throw new Error(`no code in the outbox of ${phone}`);
    return code;
  };

  const loginInit = (email: string) => api.call('POST', '/auth/login/init', { body: { email } });
  const loginVerify = (body: { email: string; otpId: string; otp: string }) =>
    api.call('POST', '/auth/login/verify', { body: { deviceFingerprint: DEVICE, ...body } });
  /** The newest code mailed to this address (sandbox mail). */
  const mailedCode = (email: string) => codes.mailedCode(api.call, email);
  /**
   * The whole sign-in: the code texted to `phone` when it is the confirmed phone, else mailed to
   * `email`; then `phone` is confirmed (unless `confirm` is false), as the account page does.
   */
  const login = async (email: string, phone: string, confirm = true) => {
    const init = await loginInit(email);
    expect(init.status).toBe(200);
    const verified = await loginVerify({ email, otpId: init.body.otpId, otp: await codes.loginCode(api.call, init, { email, phone }) });
    expect(verified.status).toBe(200);
    const token = verified.body.identityToken as string;
    if (confirm) await codes.confirmPhone(api.call, token, phone, DEVICE);
    return token;
  };

  /** The cards POST /purchase/init offers this customer for this seller's product, by last four digits. */
  const offeredCards = async (token: string, shop: { productId: string }) => {
    const init = await api.call('POST', '/purchase/init', { headers: bearer(token), body: { productId: shop.productId } });
    expect(init.status).toBe(200);
    return { purchaseId: init.body.purchaseId as string, cards: init.body.cards as { id: string; last4: string }[] };
  };
  /** Confirms the purchase with a fresh purchase code (texted to `phone`) and this card id. */
  const confirmWith = async (token: string, purchaseId: string, cardId: string, phone: string): Promise<Reply> => {
    const otp = await api.call('POST', '/purchase/otp', { headers: bearer(token), body: { purchaseId } });
    expect(otp.status).toBe(200);
    return api.call('POST', '/purchase/confirm', {
      headers: bearer(token),
      body: { purchaseId, otpId: otp.body.otpId, otp: await latestCode(phone), cardId },
    });
  };

  /** Every card the store holds for this e-mail, with any seller made here. */
  const storedCards = async (email: string) => {
    const customer = await deps.customers.findByEmail(email);
    const cards = await Promise.all(sellers.map((developerId) => deps.cards.listFor(customer!.id, developerId)));
    return cards.flat();
  };

  return {
    api, deps, bearer, seller, checkout, outbox, latestCode, mailedCode, loginInit, loginVerify, login, offeredCards, confirmWith, storedCards,
    dispose: () => opened.dispose(),
  };
}

export type BuyerShop = Awaited<ReturnType<typeof openBuyerShop>>;
