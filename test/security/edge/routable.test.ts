import { describe, expect, test } from 'bun:test';
import { clientAddress, recordSocketAddress } from '../../../src/adapters/http/client-address.ts';
import { routable } from '../../../src/adapters/http/request-route.ts';

/** The request handed to Elysia for a short Host: the right path, the same body, the same client address. */
describe('routable', () => {
  test('a usual host passes untouched (the same object: no work on the fast path)', () => {
    const request = new Request('http://127.0.0.1:3000/v1/health');

    expect(routable(request)).toBe(request);
  });

  test.each(['http://x/v1/health?a=1', 'http://abc/v1/health?a=1', 'https://x/v1/health?a=1', 'http://x:1/v1/health?a=1'])('%s is handed on with its path at index 11 or later', (url) => {
    const routed = routable(new Request(url));

    expect(routed.url.indexOf('/', 11)).toBe(routed.url.indexOf('/v1/health'));
    expect(new URL(routed.url).pathname + new URL(routed.url).search).toBe('/v1/health?a=1');
  });

  test('method, headers and body come along, and the client address too', async () => {
    const request = new Request('http://x/v1/developers/signup', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk_x' }, body: '{"a":1}' });
    recordSocketAddress(request, '203.0.113.9');

    const routed = routable(request);

    expect(routed).not.toBe(request);
    expect(routed.method).toBe('POST');
    expect(routed.headers.get('x-api-key')).toBe('sk_x');
    expect(await routed.text()).toBe('{"a":1}');
    expect(clientAddress(routed, null)).toBe('203.0.113.9');
  });
});
