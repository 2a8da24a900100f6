import type { Page } from 'playwright-core';
import { connectInBrowser, payWith } from '../browser/flows.ts';
import type { Call } from '../browser/service.ts';
import { LicenseClient, type Jwks, type LicenseClientOptions } from '../../src/client/index.ts';

export interface ConnectedSeller {
  developerId: string;
  apiKey: string;
  publishableKey: string;
  productId: string;
  jwks: Jwks;
}

/** Signup, a "Pro Plan" product, Connect through the sandbox authorize page, and the published JWKS. */
export async function connectedSeller(call: Call, page: Page): Promise<ConnectedSeller> {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Seller' } });
  if (signup.status !== 201) throw new Error(`signup: ${JSON.stringify(signup.body)}`);
  const { id: developerId, apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Pro Plan', price: 1999, currency: 'usd', features: ['pro'] } });
  if (product.status !== 201) throw new Error(`product: ${JSON.stringify(product.body)}`);
  await connectInBrowser(page, call, { apiKey });
  const jwks = await call('GET', `/developers/${developerId}/jwks.json`);
  if (jwks.status !== 200) throw new Error(`jwks: ${JSON.stringify(jwks.body)}`);
  return { developerId, apiKey, publishableKey, productId: product.body.id, jwks: jwks.body };
}

/** An application embedding the client, as the README shows, with its own cache folder and clock. */
export function appClient(url: string, seller: ConnectedSeller, options: Partial<LicenseClientOptions> & { cacheDir: string }): LicenseClient {
  return new LicenseClient({ baseUrl: `${url}/v1/`, apiKey: seller.publishableKey, productId: seller.productId, publicKeys: seller.jwks, appName: 'acme-editor', ...options });
}

/** client.checkout() with the buyer paying on the sandbox page in Chromium. */
export function buyInBrowser(client: LicenseClient, seller: ConnectedSeller, page: Page, phone: string, email: string) {
  return client.checkout({
    productId: seller.productId,
    email,
    onCheckoutUrl: async (url) => {
      await page.goto(url);
      await payWith(page, { phone });
    },
  });
}

/** The code in the newest text to this phone in the sandbox outbox. */
export async function latestCode(call: Call, phone: string): Promise<string> {
  const outbox = await call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
  const code = /\b(\d{6})\b/.exec(outbox.body?.data?.[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox of ${phone}: ${JSON.stringify(outbox.body)}`);
  return code;
}

/** The code in the newest mail to this address (sandbox mail): a first sign-in after a checkout. */
export async function mailedCode(call: Call, email: string): Promise<string> {
  const mail = await call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
  // The newest mail carrying a code (receipts are mailed too).
  const code = (mail.body?.data ?? []).map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
  if (!code) throw new Error(`no code mailed to ${email}: ${JSON.stringify(mail.body)}`);
  return code;
}

/** The signed-in buyer confirms `phone` (a code texted to it), as the account page does, so the checkout's card is offered. */
export async function confirmPhone(base: string, call: Call, identityToken: string, phone: string, device: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${identityToken}`, 'x-device-fingerprint': device };
    const response = await fetch(`${base}/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { otpId: string };
  };
  const asked = await post('/customer/phone', { phone });
  await post('/customer/phone/verify', { phone, otpId: asked.otpId, otp: await latestCode(call, phone) });
}
