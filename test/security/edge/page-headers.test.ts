import { describe, expect, test } from 'bun:test';
import { SANDBOX_CODE } from '../../checkout/shop.ts';
import { TEST_ISSUER } from '../../support/deps.ts';
import { world, type World } from '../../http/fixtures.ts';

/** Every HTML page the service serves carries a strict CSP (no framing), nosniff and no-store. */

const PAGES: [string, (w: World) => Promise<string>][] = [
  ['the Connect callback’s connected page', async (w) => {
    const start = await w.api.call('POST', '/connect/start', { key: w.other.apiKey });
    return `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state: new URL(start.body.url).searchParams.get('state')! })}`;
  }],
  ['the default success page', async () => '/checkout/success'],
  ['the default cancel page', async () => '/checkout/cancel'],
  ['the sandbox payment page', async (w) => `/sandbox/checkout/${w.sessionId}`],
  ['the sandbox authorize page', async () => `/sandbox/connect/authorize?${new URLSearchParams({ state: 'x', redirect_uri: `${TEST_ISSUER}/v1/connect/callback` })}`],
  ['the outbox page', async (w) => `/sandbox/outbox/view?to=${encodeURIComponent(w.customer.phone)}`],
  ['the API reference', async () => '/docs'],
  ['the seller console', async () => '/console'],
  ['a page of the seller console', async (w) => `/console/licenses/${w.license.id}`],
];

describe('HTML pages', () => {
  const ready = world();

  test.each(PAGES)('%s: CSP with default-src none and frame-ancestors none, nosniff, no-store', async (_name, path) => {
    const w = await ready;
    const reply = await w.api.call('GET', await path(w));
    const csp = reply.headers.get('content-security-policy') ?? '';

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toStartWith('text/html');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });
});
