import { expect } from 'bun:test';
import { TEST_ISSUER } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

export const API_BASE = `${TEST_ISSUER}/v1`;
export const GOOD_CARD = { email: 'buyer@example.com', phone: '+1 555 010 0000', cardNumber: '4242 4242 4242 4242' };
export const DECLINED = '4000 0000 0000 0002';

/** A URL the service handed out, as a path app.handle takes (under /v1). */
export function pathOf(url: string): string {
  expect(url.startsWith(API_BASE)).toBe(true);
  return url.slice(API_BASE.length);
}

/** The href of the link whose text is `label`, entities decoded. */
export function linkTo(page: string, label: string): string {
  const match = new RegExp(`<a [^>]*href="([^"]+)"[^>]*>${label}</a>`).exec(page);
  if (!match) throw new Error(`no link "${label}" in the page`);
  return match[1]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}

/** Connects the seller the way a browser would: start, open the sandbox authorize page, follow Authorize. */
export async function connectInSandbox(api: TestApi, apiKey: string): Promise<void> {
  const start = await api.call('POST', '/connect/start', { key: apiKey });
  const authorize = await api.call<string>('GET', pathOf(start.body.url));
  const callback = await api.call('GET', pathOf(linkTo(authorize.body, 'Authorize')));
  if (callback.status !== 200) throw new Error(`connect failed: ${JSON.stringify(callback.body)}`);
}

/** An HTTP app in sandbox mode with a connected seller selling Pro for $19.99. */
export async function sandboxShop() {
  const api = testApi();
  const s = await seller(api);
  await connectInSandbox(api, s.apiKey);
  const checkout = async (body: Record<string, unknown> = {}) => {
    const init = await api.call('POST', '/checkout/init', { key: s.publishableKey, body: { productId: s.product.id, ...body } });
    if (init.status !== 201) throw new Error(`checkout init failed: ${JSON.stringify(init.body)}`);
    return init.body as { sessionId: string; checkoutUrl: string };
  };
  /** As a browser posts a form: urlencoded, with its Content-Length. */
  const form = (path: string, values: Record<string, string>) => {
    const rawBody = new URLSearchParams(values).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(rawBody)) };
    return api.call<string>('POST', path, { rawBody, headers });
  };
  const pay = (sessionId: string, values: Partial<typeof GOOD_CARD> = {}) => form(`/sandbox/checkout/${sessionId}/pay`, { ...GOOD_CARD, ...values });
  const cancel = (sessionId: string) => form(`/sandbox/checkout/${sessionId}/cancel`, {});
  const status = async (sessionId: string) => (await api.call('GET', `/checkout/status/${sessionId}`)).body;
  return { api, seller: s, checkout, form, pay, cancel, status };
}
