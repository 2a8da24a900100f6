import { expect } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { SANDBOX_CODE_PREFIX } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { bearerHeaders, noteLogin } from '../support/sign-in.ts';

/**
 * The whole terminal story against a running server process, over real HTTP: a seller connects
 * (sandbox Connect), a buyer pays in the browser page (the Pay form, form-urlencoded), signs in by
 * e-mailed code, confirms the checkout's phone by SMS code, buys a second product with the saved card
 * (an SMS code), reads the license, logs out. Every secret
 * seen on the way is kept so the tests can look for it in the process's output.
 */

export const BUYER = { email: 'terminal.buyer@example.com', phone: '+15551234567', device: 'e2e-device-fingerprint' };

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export function http(base: string) {
  return async (method: string, path: string, options: { body?: unknown; form?: Record<string, string>; key?: string; bearer?: string } = {}): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (options.key) headers['x-api-key'] = options.key;
    if (options.bearer) Object.assign(headers, bearerHeaders(options.bearer));
    let body: string | undefined;
    if (options.form) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(options.form).toString()];
    else if (options.body !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(options.body)];
    const response = await fetch(`${base}/v1${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    noteLogin(path, options.body, parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

export type Http = ReturnType<typeof http>;

export const randomMasterKey = () => randomBytes(32).toString('base64');

/** A seller with a connected (sandbox) account and two products. */
export async function connectedSeller(call: Http) {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Terminal Seller' } });
  const { apiKey, publishableKey } = signup.body;
  const pro = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro', price: 1999, currency: 'usd', features: ['pro'] } });
  const plus = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro Plus', price: 2999, currency: 'usd', features: ['plus'] } });
  const start = await call('POST', '/connect/start', { key: apiKey });
  const state = new URL(start.body.url).searchParams.get('state')!;
  const callback = await call('GET', `/connect/callback?${new URLSearchParams({ code: `${SANDBOX_CODE_PREFIX}${crypto.randomUUID()}`, state })}`);
  expect(callback.status).toBe(200);
  return { apiKey: apiKey as string, publishableKey: publishableKey as string, pro: pro.body.id as string, plus: plus.body.id as string };
}

/** The buyer opens the sandbox checkout page and presses Pay, as a browser does. */
export async function payInBrowser(call: Http, seller: { apiKey: string; pro: string }) {
  const init = await call('POST', '/checkout/init', { key: seller.apiKey, body: { productId: seller.pro } });
  const page = await call('GET', new URL(init.body.checkoutUrl).pathname.replace(/^\/v1/, ''));
  expect(page.status).toBe(200);
  const pay = await call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, {
    form: { email: BUYER.email, phone: BUYER.phone, cardNumber: '4242 4242 4242 4242' },
  });
  expect(pay.status).toBe(303);
}

export interface Journey {
  codes: string[];
  identityToken: string;
  licenseKeys: string[];
  licenseId: string;
  steps: Record<'loginInit' | 'wrongLogin' | 'verify' | 'phone' | 'phoneVerify' | 'purchaseInit' | 'purchaseOtp' | 'confirm' | 'license' | 'validate' | 'logout' | 'afterLogout', Reply>;
}

/**
 * Sign-in, phone confirmation, purchase with the saved card, license read, logout: `codes.texted`
 * reads the newest code from wherever SMS went, `codes.mailed` from wherever mail went.
 */
export async function terminalJourney(
  call: Http,
  seller: Awaited<ReturnType<typeof connectedSeller>>,
  codes: { texted: () => Promise<string>; mailed: () => Promise<string> },
): Promise<Journey> {
  const loginInit = await call('POST', '/auth/login/init', { body: { email: BUYER.email } });
  const loginCode = await codes.mailed();
  const wrong = `${(Number(loginCode[0]) + 1) % 10}${loginCode.slice(1)}`;
  const login = { email: BUYER.email, otpId: loginInit.body.otpId, deviceFingerprint: BUYER.device };
  const wrongLogin = await call('POST', '/auth/login/verify', { body: { ...login, otp: wrong } });
  const verify = await call('POST', '/auth/login/verify', { body: { ...login, otp: loginCode } });
  const identityToken: string = verify.body.identityToken;
  const bearer = identityToken;
  const phone = await call('POST', '/customer/phone', { bearer, body: { phone: BUYER.phone } });
  const phoneCode = await codes.texted();
  const phoneVerify = await call('POST', '/customer/phone/verify', { bearer, body: { phone: BUYER.phone, otpId: phone.body.otpId, otp: phoneCode } });

  const purchaseInit = await call('POST', '/purchase/init', { bearer, body: { productId: seller.plus } });
  const purchaseOtp = await call('POST', '/purchase/otp', { bearer, body: { purchaseId: purchaseInit.body.purchaseId } });
  const purchaseCode = await codes.texted();
  const confirm = await call('POST', '/purchase/confirm', {
    bearer,
    body: { purchaseId: purchaseInit.body.purchaseId, otpId: purchaseOtp.body.otpId, otp: purchaseCode, cardId: purchaseInit.body.cards[0]?.id ?? 'none' },
  });
  const licenseId: string = confirm.body.license?.id;
  const license = await call('GET', `/licenses/${licenseId}`, { bearer });
  const validate = await call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: confirm.body.licenseKey, machineFingerprint: 'm'.repeat(64) } });
  const logout = await call('POST', '/auth/logout', { bearer });
  const afterLogout = await call('GET', `/licenses/${licenseId}`, { bearer });

  return {
    codes: [loginCode, wrong, purchaseCode, phoneCode],
    identityToken,
    licenseKeys: [...(verify.body.licenses ?? []).map((l: { licenseKey: string }) => l.licenseKey), confirm.body.licenseKey],
    licenseId,
    steps: { loginInit, wrongLogin, verify, phone, phoneVerify, purchaseInit, purchaseOtp, confirm, license, validate, logout, afterLogout },
  };
}

/** The journey went as the contract says, so what the tests check afterwards is about a real run. */
export function expectJourneyWorked(journey: Journey) {
  const { steps } = journey;
  // The checkout's phone is no factor: the first sign-in is by e-mail, answered with a decoy mask.
  expect(steps.loginInit.body).toEqual({ otpId: expect.any(String), phoneMasked: expect.stringMatching(/^\+\*+\d{4}$/), expiresIn: 300 });
  expect(steps.wrongLogin.status).toBe(422);
  expect(steps.verify.status).toBe(200);
  expect(journey.identityToken).toStartWith('idt_');
  expect(steps.phone.body).toMatchObject({ phoneMasked: '+*******4567' });
  expect(steps.phoneVerify.status).toBe(200);
  expect(steps.verify.body.licenses).toEqual([expect.objectContaining({ productName: 'Pro' })]);
  expect(steps.purchaseInit.body.cards).toEqual([expect.objectContaining({ last4: '4242' })]);
  expect(steps.purchaseOtp.status).toBe(200);
  expect(steps.confirm.status).toBe(200);
  expect(steps.license.status).toBe(200);
  expect(steps.validate.body).toMatchObject({ valid: true });
  expect(steps.logout.status).toBe(200);
  expect(steps.afterLogout.status).toBe(401);
}
