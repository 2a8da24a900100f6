import { expect } from 'bun:test';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { maskPhone } from '../../src/domain/phone.ts';
import { aCompletion, connectedShop, type ShopOptions } from '../checkout/shop.ts';
import type { Reply } from '../support/http.ts';

/**
 * The terminal flow on the HTTP app (app.handle) over a real in-memory SQLite store: a connected
 * seller, customers who bought once in the browser checkout (so they have a phone and a saved card),
 * codes read back from the sandbox SMS outbox.
 */

export const PHONE = '+15551234567';
export const EMAIL = 'ada@example.com';
export const DEVICE = 'device-fingerprint-1';
export const PAYS = '4242 4242 4242 4242';
/** Sandbox cards that pay at checkout and are saved, but whose later off-session charges fail. */
export const DECLINES_LATER = '4000 0000 0000 0341';
export const NEEDS_AUTHENTICATION_LATER = '4000 0027 6000 3184';

export type Terminal = Awaited<ReturnType<typeof openTerminal>>;

export async function openTerminal(options: ShopOptions = {}) {
  const shop = await connectedShop(options);
  const { api } = shop;

  /** The device each token was issued to (loginVerify records it): a token is always sent with its device. */
  const devices = new Map<string, string>();
  const bearer = (token: string, headers: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'x-device-fingerprint': devices.get(token) ?? DEVICE, ...headers });

  /** Pays a sandbox checkout of `productId` through the Pay form, as a browser posts it (form-urlencoded). */
  const payInBrowser = async (buyer: { email?: string; phone?: string; cardNumber?: string } = {}, productId = shop.dev.product.id, key = shop.dev.apiKey) => {
    const init = await api.call('POST', '/checkout/init', { key, body: { productId } });
    if (init.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(init.body)}`);
    const form = new URLSearchParams({ email: buyer.email ?? EMAIL, phone: buyer.phone ?? PHONE, cardNumber: buyer.cardNumber ?? PAYS });
    const pay = await api.call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (pay.status !== 303) throw new Error(`pay failed (${pay.status}): ${String(pay.body).slice(0, 300)}`);
    return init.body.sessionId as string;
  };

  /** A completed checkout (as a webhook or the Pay form completes it), in either processor mode. */
  const buy = async (completion: Parameters<typeof aCompletion>[0] = {}, productId = shop.dev.product.id, key = shop.dev.apiKey) => {
    const init = await api.call('POST', '/checkout/init', { key, body: { productId } });
    if (init.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(init.body)}`);
    await completeCheckout(api.deps, init.body.sessionId, aCompletion({ email: EMAIL, phone: PHONE, ...completion }));
    return init.body.sessionId as string;
  };

  const outbox = async (phone = PHONE) => {
    const reply = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
    expect(reply.status).toBe(200);
    return reply.body.data as { to: string; body: string; sentAt: number }[];
  };
  /** The code in the newest message to this phone. */
  const latestCode = async (phone = PHONE) => {
    const [newest] = await outbox(phone);
    const code = newest && /\b(\d{6})\b/.exec(newest.body)?.[1];
    if (!code) throw new Error(`no code in the outbox of ${phone}`);
    return code;
  };

  const mail = async (email = EMAIL) => {
    const reply = await api.call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
    expect(reply.status).toBe(200);
    return reply.body.data as { to: string; subject: string; text: string; sentAt: number }[];
  };
  /** The code in the newest mail to this address. */
  const mailedCode = async (email = EMAIL) => {
    // The newest mail carrying a code (receipts are mailed too).
    const code = (await mail(email)).map((m) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
    if (!code) throw new Error(`no code in the mail of ${email}`);
    return code;
  };
  /** The newest code sent to this buyer, by text to `phone` or by mail to `email`. */
  const newestCode = async (email: string, phone: string) => {
    const [text] = await outbox(phone);
    const [mailed] = await mail(email);
    const newest = !mailed || (text && text.sentAt > mailed.sentAt) ? text?.body : mailed.text;
    const code = newest && /\b(\d{6})\b/.exec(newest)?.[1];
    if (!code) throw new Error(`no code for ${email} or ${phone}`);
    return code;
  };

  const loginInit = (email = EMAIL) => api.call('POST', '/auth/login/init', { body: { email } });
  const loginVerify = async (body: { otpId: string; otp: string; email?: string; deviceFingerprint?: string }) => {
    const sent = { email: EMAIL, deviceFingerprint: DEVICE, ...body };
    const reply = await api.call('POST', '/auth/login/verify', { body: sent });
    if (typeof reply.body?.identityToken === 'string') devices.set(reply.body.identityToken, sent.deviceFingerprint);
    return reply;
  };
  /** init, then the code (texted to a confirmed phone, or mailed): a challenge ready to verify. */
  const challenge = async (email = EMAIL, phone = PHONE) => {
    const init = await loginInit(email);
    if (init.status !== 200) throw new Error(`login init failed: ${JSON.stringify(init.body)}`);
    // Texted when the answer names the confirmed phone; e-mailed otherwise (the mask is then a decoy).
    const texted = init.body.phoneMasked === maskPhone(phone);
    return { otpId: init.body.otpId as string, code: texted ? await latestCode(phone) : await mailedCode(email) };
  };
  /** Confirms `phone` as the signed-in customer's phone (a code texted to it); nothing when it already is. */
  const confirmPhone = async (token: string, phone = PHONE) => {
    const asked = await api.call('POST', '/customer/phone', { headers: bearer(token), body: { phone } });
    if (asked.status === 409) return;
    if (asked.status !== 200) throw new Error(`phone confirmation failed: ${JSON.stringify(asked.body)}`);
    const done = await api.call('POST', '/customer/phone/verify', { headers: bearer(token), body: { phone, otpId: asked.body.otpId, otp: await latestCode(phone) } });
    if (done.status !== 200) throw new Error(`phone confirmation failed: ${JSON.stringify(done.body)}`);
  };
  /**
   * The whole sign-in: an identity token. The first sign-in of a checkout's buyer is by mailed code;
   * then the checkout's phone is confirmed (unless `confirm` is false), so its saved cards are usable.
   */
  const login = async (email = EMAIL, phone = PHONE, deviceFingerprint = DEVICE, confirm = true) => {
    const { otpId, code } = await challenge(email, phone);
    const verified = await loginVerify({ email, otpId, otp: code, deviceFingerprint });
    if (verified.status !== 200) throw new Error(`login failed: ${JSON.stringify(verified.body)}`);
    const token = verified.body.identityToken as string;
    if (confirm) await confirmPhone(token, phone);
    return token;
  };

  const purchaseInit = (token: string, productId = shop.dev.product.id) =>
    api.call('POST', '/purchase/init', { headers: bearer(token), body: { productId } });
  const purchaseOtp = (token: string, purchaseId: string) => api.call('POST', '/purchase/otp', { headers: bearer(token), body: { purchaseId } });
  const purchaseConfirm = (token: string, body: { purchaseId: string; otpId: string; otp: string; cardId: string }, headers: Record<string, string> = {}) =>
    api.call('POST', '/purchase/confirm', { headers: bearer(token, headers), body });
  /** init and otp: a purchase ready to confirm with `code` and one of `cards`. */
  const purchase = async (token: string, productId = shop.dev.product.id, phone = PHONE) => {
    const init = await purchaseInit(token, productId);
    if (init.status !== 200) throw new Error(`purchase init failed: ${JSON.stringify(init.body)}`);
    const otp = await purchaseOtp(token, init.body.purchaseId);
    if (otp.status !== 200) throw new Error(`purchase otp failed: ${JSON.stringify(otp.body)}`);
    return { ...init.body, otpId: otp.body.otpId as string, code: await latestCode(phone) } as {
      purchaseId: string; amount: number; currency: string; cards: { id: string; last4: string }[]; otpId: string; code: string;
    };
  };

  /** Another connected seller on the same service, with a product of its own. */
  const otherSeller = async (name = 'Other Tool') => {
    const signup = await api.call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Other' } });
    const key = signup.body.apiKey as string;
    const product = await api.call('POST', '/developers/products', { key, body: { name, price: 4900, currency: 'eur', features: ['other'] } });
    const connected = await shop.connect(key);
    if (connected.status !== 200) throw new Error(`connect failed: ${JSON.stringify(connected.body)}`);
    return { apiKey: key, publishableKey: signup.body.publishableKey as string, product: product.body as { id: string; name: string } };
  };
  /** Another product of this shop's seller. */
  const anotherProduct = async (name = 'Pro Plus', price = 2999) => {
    const product = await api.call('POST', '/developers/products', { key: shop.dev.apiKey, body: { name, price, currency: 'usd', features: ['plus'] } });
    return product.body as { id: string; name: string; price: number };
  };

  return {
    ...shop, bearer, payInBrowser, buy, outbox, latestCode, mail, mailedCode, newestCode, confirmPhone, loginInit, loginVerify, challenge, login,
    purchaseInit, purchaseOtp, purchaseConfirm, purchase, otherSeller, anotherProduct,
  };
}

/** CONTRACT.md's error shape with this status and code. */
export function expectError(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  expect(typeof reply.body.error.message).toBe('string');
}

/** A 6-digit code that is certainly not `code`. */
export const wrongCode = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

/** The Retry-After header of a 429, which must hold whole seconds. */
export function retryAfterOf(reply: Reply): number {
  const header = reply.headers.get('retry-after');
  expect(header).toMatch(/^\d+$/);
  return Number(header);
}
