import { describe, expect, test } from 'bun:test';
import { completeCheckout } from '../../../src/app/checkout/complete-checkout.ts';
import { KEY_AVAILABLE_FOR_MS } from '../../../src/app/checkout/checkout-status.ts';
import { aCompletion, connectedShop } from '../../checkout/shop.ts';

/**
 * A checkout session id bears a license key: the status hands the key out for 24 hours after
 * payment, then answers 404 not_found; the buyer gets their keys again by signing in.
 */
describe('GET /checkout/status/:sessionId after completion', () => {
  test('the window is 24 hours', () => {
    expect(KEY_AVAILABLE_FOR_MS).toBe(24 * 3_600_000);
  });

  test('complete with the key until 24 hours after payment, then 404 not_found without the key', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    await completeCheckout(shop.api.deps, sessionId, aCompletion());

    shop.clock.advance(KEY_AVAILABLE_FOR_MS - 1);
    const lastMoment = await shop.status(sessionId);
    shop.clock.advance(1);
    const after = await shop.status(sessionId);

    expect(lastMoment.status).toBe(200);
    expect(typeof lastMoment.body.licenseKey).toBe('string');
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ error: { code: 'not_found', message: expect.stringContaining('Sign in') } });
    expect(JSON.stringify(after.body)).not.toContain(lastMoment.body.licenseKey);
  });

  test('the 24 hours count from payment, not from checkout init: a late payment gets its full day', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();
    shop.clock.advance(20 * 3_600_000);
    await completeCheckout(shop.api.deps, sessionId, aCompletion());

    shop.clock.advance(KEY_AVAILABLE_FOR_MS - 60_000);
    const reply = await shop.status(sessionId);

    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('complete');
  });

  test('a pending or expired session is unaffected: expired stays expired a day later', async () => {
    const shop = await connectedShop();
    const { sessionId } = await shop.checkout();

    shop.clock.advance(KEY_AVAILABLE_FOR_MS * 2);

    expect((await shop.status(sessionId)).body).toEqual({ status: 'expired' });
  });
});
