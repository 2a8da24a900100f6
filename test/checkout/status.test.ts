import { describe, expect, test } from 'bun:test';
import { completeCheckout } from '../../src/app/checkout/complete-checkout.ts';
import { CHECKOUT_LIFETIME_MS } from '../../src/domain/checkout-session.ts';
import { decodeKey, expectError } from '../http/fixtures.ts';
import { aCompletion, connectedShop } from './shop.ts';

describe('GET /checkout/status/:sessionId', () => {
  test('a new session is pending', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    const reply = await shop.status(sessionId);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'pending' });
  });

  test('needs no credential: the session id is the secret', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    const reply = await shop.api.call('GET', `/checkout/status/${sessionId}`, { headers: {} });
    expect(reply.status).toBe(200);
  });

  test('an unknown session is 404 not_found', async () => {
    const shop = await connectedShop();
    expectError(await shop.status('cs_neverIssued000000000000'), 404, 'not_found');
  });

  test('after completion: complete, with a licenseKey and the license’s fields (and its product’s name), the key not inside the license', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    await completeCheckout(shop.api.deps, sessionId, aCompletion());

    const reply = await shop.status(sessionId);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: 'complete',
      licenseKey: expect.any(String),
      license: {
        id: expect.stringMatching(/^lic_/),
        productId: shop.dev.product.id,
        productName: shop.dev.product.name,
        status: 'active',
        features: ['pro'],
        issuedAt: shop.clock.now(),
        expiresAt: null,
        trial: false,
      },
    });
    expect(Object.keys(reply.body.license).sort()).toEqual(['expiresAt', 'features', 'id', 'issuedAt', 'productId', 'productName', 'status', 'trial']);
  });

  test('the completed session’s licenseKey validates online as that very license', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    await completeCheckout(shop.api.deps, sessionId, aCompletion());
    const { licenseKey, license } = (await shop.status(sessionId)).body;

    const validation = await shop.validate(licenseKey);

    expect(validation.body).toMatchObject({ valid: true, license: { id: license.id, status: 'active' } });
    expect(decodeKey(licenseKey).claims).toMatchObject({ id: license.id, productId: shop.dev.product.id, sub: shop.dev.id });
  });

  test('a product sold for N days yields a license expiring N days after payment', async () => {
    const shop = await connectedShop();
    await shop.api.call('PATCH', `/developers/products/${shop.dev.product.id}`, { key: shop.dev.apiKey, body: { licenseDays: 30 } });
    const { sessionId } = await shop.checkout();
    shop.clock.advance(60_000);
    await completeCheckout(shop.api.deps, sessionId, aCompletion());
    const { license } = (await shop.status(sessionId)).body;
    expect(license.expiresAt).toBe(shop.clock.now() + 30 * 86_400_000);
  });

  test('still pending 1 ms before 30 minutes', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    shop.clock.advance(CHECKOUT_LIFETIME_MS - 1);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'pending' });
  });

  test('expired at exactly 30 minutes, and from then on', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    shop.clock.advance(CHECKOUT_LIFETIME_MS);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
    shop.clock.advance(24 * 3_600_000);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
  });

  test('expiry is decided by the clock at read time, with no sweeper: the first poll ever can say expired', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    shop.clock.advance(CHECKOUT_LIFETIME_MS + 1);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
  });

  test('a payment that completes after expiry still yields the license: paid is paid', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    shop.clock.advance(CHECKOUT_LIFETIME_MS + 60_000);
    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });

    await completeCheckout(shop.api.deps, sessionId, aCompletion());

    const reply = await shop.status(sessionId);
    expect(reply.body.status).toBe('complete');
    expect((await shop.validate(reply.body.licenseKey)).body.valid).toBe(true);
  });

  test('a completed session stays complete after its 30 minutes', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    await completeCheckout(shop.api.deps, sessionId, aCompletion());
    shop.clock.advance(CHECKOUT_LIFETIME_MS * 10);
    expect((await shop.status(sessionId)).body.status).toBe('complete');
  });

  test('a revoked license shows as revoked in the completed status', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    const license = await completeCheckout(shop.api.deps, sessionId, aCompletion());
    await shop.api.call('POST', `/licenses/${license.id}/revoke`, { key: shop.dev.apiKey });
    expect((await shop.status(sessionId)).body.license.status).toBe('revoked');
  });
});
