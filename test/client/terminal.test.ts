import { describe, expect, test } from 'bun:test';
import { ApiError } from '../../src/client/index.ts';
import { BASE_URL, fakeFetch, FINGERPRINT, json, newClient, sellerKey, T0, tempDirs, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const KEY = seller.issue();
const SERVER_LICENSE = { id: 'lic_1', productId: 'prod_1', customerId: 'cus_1', status: 'active', features: ['pro'], issuedAt: T0, expiresAt: null, machineFingerprint: null };

function setup(routes: Record<string, (call: Call) => Response>) {
  const net = fakeFetch((call) => {
    const route = routes[`${call.method} ${call.url.slice(BASE_URL.length)}`];
    return route ? route(call) : json({ error: { code: 'not_found', message: 'no route' } }, 404);
  });
  return { net, client: newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch }) };
}

describe('the terminal flow: SMS login, then a purchase with a saved card', () => {
  test('loginVerify sends the device fingerprint and keeps the identity token for the purchase calls', async () => {
    const { client, net } = setup({
      'POST /auth/login/verify': () => json({ identityToken: 'idt_1', licenses: [] }),
      'POST /purchase/init': () => json({ purchaseId: 'pur_1', productId: 'prod_1', productName: 'Pro Plan', amount: 1999, currency: 'usd', cards: [] }),
    });

    const verified = await client.loginVerify({ email: 'b@example.com', otpId: 'otp_1', otp: '123456' });
    await client.purchaseInit('prod_1');

    expect(verified.identityToken).toBe('idt_1');
    expect(net.calls[0]!.body).toEqual({ email: 'b@example.com', otpId: 'otp_1', otp: '123456', deviceFingerprint: FINGERPRINT });
    expect(net.calls[1]!.headers).toMatchObject({ authorization: 'Bearer idt_1', 'x-device-fingerprint': FINGERPRINT });
    expect(net.calls[1]!.body).toEqual({ productId: 'prod_1' });
  });

  test('purchaseConfirm stores the new key, with the product name learnt at purchase init', async () => {
    const { client, net } = setup({
      'POST /purchase/init': () => json({ purchaseId: 'pur_1', productId: 'prod_1', productName: 'Pro Plan', amount: 1999, currency: 'usd', cards: [] }),
      'POST /purchase/confirm': () => json({ license: SERVER_LICENSE, licenseKey: KEY }),
    });
    client.setIdentityToken('idt_saved');
    await client.purchaseInit('prod_1');

    const confirmed = await client.purchaseConfirm({ purchaseId: 'pur_1', otpId: 'otp_2', otp: '654321', cardId: 'card_1' });

    expect(confirmed).toEqual({ licenseKey: KEY, license: { id: 'lic_1', productId: 'prod_1', productName: 'Pro Plan', status: 'active', features: ['pro'], issuedAt: T0, expiresAt: null } });
    expect(await client.getCachedLicenseKey()).toBe(KEY);
    expect(net.calls[1]!.body).toEqual({ purchaseId: 'pur_1', otpId: 'otp_2', otp: '654321', cardId: 'card_1' });
    expect(net.calls[1]!.headers.authorization).toBe('Bearer idt_saved');
  });

  test('an error answer becomes an ApiError with status, code, message and Retry-After in seconds', async () => {
    const { client } = setup({
      'POST /auth/login/init': () => json({ error: { code: 'rate_limited', message: 'Too many codes.' } }, 429, { 'retry-after': '840' }),
    });

    const error = await client.loginInit('b@example.com').catch((e) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code, message: error.message, retry: error.retryAfterSeconds }).toEqual({
      status: 429,
      code: 'rate_limited',
      message: 'Too many codes.',
      retry: 840,
    });
  });

  test('an unreachable server is an ApiError with status 0 and code network_error', async () => {
    const net = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch });

    const error = await client.purchaseOtp('pur_1').catch((e) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code]).toEqual([0, 'network_error']);
  });

  test('logout revokes the token on the server, then forgets it; a token the server already forgot is logged out too', async () => {
    let answer = () => json({ loggedOut: true });
    const { client, net } = setup({ 'POST /auth/logout': () => answer(), 'POST /purchase/otp': () => json({ error: { code: 'unauthorized', message: 'x' } }, 401) });
    client.setIdentityToken('idt_1');

    await client.logout();
    await client.purchaseOtp('pur_1').catch(() => {});
    client.setIdentityToken('idt_stale');
    answer = () => json({ error: { code: 'unauthorized', message: 'unknown token' } }, 401);
    await client.logout();
    await client.logout();

    expect(net.calls.map((c) => [c.url.slice(BASE_URL.length), c.headers.authorization])).toEqual([
      ['/auth/logout', 'Bearer idt_1'],
      ['/purchase/otp', undefined],
      ['/auth/logout', 'Bearer idt_stale'],
    ]);
  });
});
