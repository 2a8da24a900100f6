import { describe, expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';
import { API_BASE, linkTo, pathOf } from './support.ts';

async function authorizePage() {
  const api = testApi();
  const s = await seller(api);
  const start = await api.call('POST', '/connect/start', { key: s.apiKey });
  const page = await api.call<string>('GET', pathOf(start.body.url));
  return { api, seller: s, page };
}

describe('the sandbox Connect authorize page', () => {
  test('Authorize goes to the callback with a sandbox code and the state, which connects the seller', async () => {
    const { api, seller: s, page } = await authorizePage();
    const authorize = new URL(linkTo(page.body, 'Authorize'));
    const callback = await api.call<string>('GET', pathOf(authorize.toString()));
    const status = await api.call('GET', '/connect/status', { key: s.apiKey });
    expect(page.status).toBe(200);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${API_BASE}/connect/callback`);
    expect(authorize.searchParams.get('code')).toMatch(/^sbx_code_[0-9A-Za-z]{24,}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(callback.body).toContain('Connected');
    expect(status.body).toEqual({ connected: true, accountId: expect.stringMatching(/^acct_sandbox_/) });
  });

  test('Cancel goes to the callback with access_denied and leaves the seller unconnected', async () => {
    const { api, seller: s, page } = await authorizePage();
    const deny = new URL(linkTo(page.body, 'Cancel'));
    await api.call('GET', pathOf(deny.toString()));
    const status = await api.call('GET', '/connect/status', { key: s.apiKey });
    expect(deny.searchParams.get('error')).toBe('access_denied');
    expect(deny.searchParams.get('code')).toBeNull();
    expect(status.body).toEqual({ connected: false });
  });

  test.each([
    ['another site', 'https://evil.example/connect/callback'],
    ['another path of ours', `${API_BASE}/connect/callbackx`],
    ['a relative path', '/v1/connect/callback'],
  ])('refuses a redirect_uri on %s with a JSON 400', async (_, redirectUri) => {
    const api = testApi();
    const query = new URLSearchParams({ state: 'st_x', redirect_uri: redirectUri });
    const page = await api.call('GET', `/sandbox/connect/authorize?${query}`);
    expect(page.status).toBe(400);
    expect(page.body.error.code).toBe('invalid_request');
  });

  test('without a state is a JSON 400', async () => {
    const api = testApi();
    const page = await api.call('GET', `/sandbox/connect/authorize?redirect_uri=${encodeURIComponent(`${API_BASE}/connect/callback`)}`);
    expect(page.status).toBe(400);
  });
});

describe('the default redirect pages', () => {
  test.each([
    ['/checkout/success', 'Payment complete'],
    ['/checkout/cancel', 'Payment cancelled'],
  ])('%s is an HTML page saying "%s" and to return to the application', async (path, title) => {
    const api = testApi();
    const page = await api.call<string>('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<h1>${title}</h1>`);
    expect(page.body).toContain('Return to the application');
  });
});

test('the OpenAPI document lists the sandbox pages as HTML under the Sandbox tag', async () => {
  const api = testApi();
  const doc = (await api.call('GET', '/openapi.json')).body;
  const pay = doc.paths['/v1/sandbox/checkout/{sessionId}/pay'].post;
  expect(pay.tags).toEqual(['Sandbox']);
  expect(Object.keys(pay.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
  expect(Object.keys(pay.responses)).toEqual(expect.arrayContaining(['200', '303', '400', '404']));
  expect(doc.paths['/v1/sandbox/checkout/{sessionId}'].get.responses['200'].content).toHaveProperty(['text/html']);
  expect(doc.paths['/v1/sandbox/connect/authorize'].get.tags).toEqual(['Sandbox']);
  expect(doc.paths['/v1/checkout/success'].get.responses['200'].content).toHaveProperty(['text/html']);
});
