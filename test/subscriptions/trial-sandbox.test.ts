import { describe, expect, test } from 'bun:test';
import { connectedShop } from '../checkout/shop.ts';
import { periodEndAfter } from '../../src/domain/subscription.ts';
import { licenseEventsOf, ordersOf } from './records.ts';

const DAY = 86_400_000;
const BUYER = 'buyer@example.com';

/** A sandbox shop (FixedClock) selling a monthly product with a 14-day trial. */
async function trialShop() {
  const shop = await connectedShop();
  const product = await shop.api.call('POST', '/developers/products', {
    key: shop.dev.apiKey,
    body: { name: 'Pro monthly', price: 900, currency: 'usd', features: ['pro'], interval: 'month', trialDays: 14 },
  });
  if (product.status !== 201) throw new Error(JSON.stringify(product.body));
  const productId = product.body.id as string;
  const advance = (advanceDays: number) => shop.api.call('POST', '/sandbox/clock', { key: shop.dev.apiKey, body: { advanceDays } });
  /** Checkout and the sandbox Pay as BUYER with `cardNumber`; the session's status. */
  const buy = async (cardNumber = '4242 4242 4242 4242') => {
    const { sessionId } = await shop.checkout({ productId });
    const form = new URLSearchParams({ email: BUYER, phone: '+15550100000', cardNumber });
    const pay = await shop.api.call('POST', `/sandbox/checkout/${sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (pay.status !== 303) throw new Error(`pay: ${pay.status} ${JSON.stringify(pay.body)}`);
    return { sessionId, ...((await shop.status(sessionId)).body as { licenseKey: string; license: { id: string; expiresAt: number } }) };
  };
  return { shop, productId, advance, buy };
}


describe('a monthly product with a trial, in the sandbox', () => {
  test('Pay charges nothing: a trial license to the trial’s end; the clock charges the first period at the trial’s end and converts it in place', async () => {
    const { shop, advance, buy } = await trialShop();
    const paidAt = shop.clock.now();
    const trialEnd = paidAt + 14 * DAY;

    const bought = await buy();

    const license = (await shop.api.deps.licenses.findById(bought.license.id))!;
    expect(license).toMatchObject({ trial: true, expiresAt: trialEnd });
    const subscription = (await shop.api.deps.subscriptions.findByLicense(license.id))!;
    expect(subscription).toMatchObject({ status: 'active', trialEnd, currentPeriodEnd: trialEnd, processor: 'sandbox' });
    expect(ordersOf(shop, license.id)).toEqual([]);
    // The buyer's mail, queued with the license: no receipt of a payment that did not happen.
    const [mailed] = (shop.store.sqlite.query('SELECT text FROM mail_outbox WHERE license_id = ?').all(license.id) as { text: string }[]).map((m) => m.text);
    expect(mailed).not.toContain('Paid:');
    expect(mailed).toContain('Your Pro monthly subscription from Seller starts with a free trial: nothing was charged.');
    expect(mailed).toContain(`Free trial until ${new Date(trialEnd).toISOString().slice(0, 10)} (UTC); then $9.00 every month, unless you cancel before`);
    expect((await advance(13)).body.billed).toEqual([]);

    expect((await advance(2)).body.billed).toEqual([{ subscriptionId: subscription.id, outcome: 'renewed', periods: 1 }]);

    const converted = (await shop.api.deps.licenses.findById(license.id))!;
    expect(converted).toMatchObject({ id: license.id, trial: false, expiresAt: periodEndAfter(trialEnd, 'month') + 3 * DAY });
    expect(ordersOf(shop, license.id)).toEqual([{ source: 'renewal', amount: 900 }]);
    expect(licenseEventsOf(shop, license.id)).toEqual(['license.created', 'license.converted']);
    // The trial's key hands over the paid one, as a renewed license's old key does.
    const validated = await shop.validate(bought.licenseKey);
    expect(validated.body).toMatchObject({ valid: true, license: { id: license.id, licenseKey: converted.licenseKey, expiresAt: converted.expiresAt } });
    expect((await advance(0)).body.billed).toEqual([]);
  });

  test('the first charge refunded in full takes the license back, as a first payment’s refund does', async () => {
    const { shop, advance, buy } = await trialShop();
    const bought = await buy();
    await advance(15);
    const [order] = shop.store.sqlite.query('SELECT id FROM orders WHERE license_id = ?').all(bought.license.id) as { id: string }[];

    const refund = await shop.api.call('POST', `/developers/orders/${order!.id}/refund`, { key: shop.dev.apiKey });

    expect(refund.body).toMatchObject({ status: 'refunded', amountRefunded: 900 });
    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ storedStatus: 'revoked', trial: false });
  });

  test('a first charge that fails at the trial’s end: past_due, nothing recorded, the trial license ends with the trial', async () => {
    const { shop, advance, buy } = await trialShop();
    const trialEnd = shop.clock.now() + 14 * DAY;
    const bought = await buy('4000 0000 0000 0341');

    expect((await advance(15)).body.billed).toMatchObject([{ outcome: 'payment_failed', periods: 0 }]);

    expect(await shop.api.deps.subscriptions.findByLicense(bought.license.id)).toMatchObject({ status: 'past_due' });
    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ trial: true, expiresAt: trialEnd });
    expect(ordersOf(shop, bought.license.id)).toEqual([]);
  });

  test('cancelled during the trial: nothing is charged, the subscription ends at the trial’s end and the license with it', async () => {
    const { shop, advance, buy } = await trialShop();
    const trialEnd = shop.clock.now() + 14 * DAY;
    const bought = await buy();
    const subscription = (await shop.api.deps.subscriptions.findByLicense(bought.license.id))!;

    const cancel = await shop.api.call('POST', `/developers/subscriptions/${subscription.id}/cancel`, { key: shop.dev.apiKey });
    expect(cancel.body).toMatchObject({ cancelAtPeriodEnd: true });

    expect((await advance(15)).body.billed).toEqual([{ subscriptionId: subscription.id, outcome: 'canceled', periods: 0 }]);
    expect(await shop.api.deps.subscriptions.findByLicense(bought.license.id)).toMatchObject({ status: 'canceled', canceledAt: trialEnd, trialEnd });
    expect(ordersOf(shop, bought.license.id)).toEqual([]);
    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ trial: true, expiresAt: trialEnd });
    expect(licenseEventsOf(shop, bought.license.id)).toEqual(['license.created']);
    shop.clock.time = trialEnd - 1;
    expect((await shop.validate(bought.licenseKey)).body.valid).toBe(true);
    shop.clock.time = trialEnd;
    expect((await shop.validate(bought.licenseKey)).body).toEqual({ valid: false, reason: 'expired' });
  });

  test('bought during the buyer’s free trial: the subscription’s trial is what is left of theirs, on the same license, converted by the first charge', async () => {
    const { shop, productId, advance, buy } = await trialShop();
    const started = await shop.api.call('POST', '/trials', { key: shop.dev.apiKey, body: { productId, email: BUYER, machineFingerprint: 'machine-a' } });
    expect(started.status).toBe(201);
    const freeTrialEnd = started.body.license.expiresAt as number;
    shop.clock.advance(4 * DAY);

    const bought = await buy();

    expect(bought.license.id).toBe(started.body.license.id);
    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ trial: true, expiresAt: freeTrialEnd });
    const subscription = (await shop.api.deps.subscriptions.findByLicense(bought.license.id))!;
    expect(subscription).toMatchObject({ trialEnd: freeTrialEnd, currentPeriodEnd: freeTrialEnd });
    expect((await shop.api.deps.licenses.findById(bought.license.id))!.subscriptionId).toBe(subscription.id);
    expect(ordersOf(shop, bought.license.id)).toEqual([]);
    // The machine of the free trial keeps running it; the old trial key still names the license.
    expect((await shop.validate(started.body.licenseKey, 'machine-a')).body).toMatchObject({ valid: true, license: { id: bought.license.id } });

    expect((await advance(11)).body.billed).toEqual([{ subscriptionId: subscription.id, outcome: 'renewed', periods: 1 }]);

    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ trial: false, expiresAt: periodEndAfter(freeTrialEnd, 'month') + 3 * DAY });
    expect(licenseEventsOf(shop, bought.license.id)).toEqual(['license.created', 'license.converted']);
    expect(ordersOf(shop, bought.license.id)).toEqual([{ source: 'renewal', amount: 900 }]);
  });

  test('bought after the buyer’s free trial ended: no second trial, charged at once, the trial converted at checkout', async () => {
    const { shop, productId, buy } = await trialShop();
    const started = await shop.api.call('POST', '/trials', { key: shop.dev.apiKey, body: { productId, email: BUYER, machineFingerprint: 'machine-a' } });
    shop.clock.advance(20 * DAY);

    const bought = await buy();

    expect(bought.license.id).toBe(started.body.license.id);
    expect(await shop.api.deps.licenses.findById(bought.license.id)).toMatchObject({ trial: false, expiresAt: periodEndAfter(shop.clock.now(), 'month') + 3 * DAY });
    expect(await shop.api.deps.subscriptions.findByLicense(bought.license.id)).toMatchObject({ trialEnd: null });
    expect(ordersOf(shop, bought.license.id)).toEqual([{ source: 'checkout', amount: 900 }]);
  });

  test('the payment page tells the trial, the first charge and renewal, and the seller; with the buyer’s e-mail, their trial’s remaining days', async () => {
    const { shop, productId } = await trialShop();
    const { checkoutUrl } = await shop.checkout({ productId });
    const page = (await shop.api.call<string>('GET', new URL(checkoutUrl).pathname.replace(/^\/v1/, ''))).body;
    expect(page).toContain('$9.00 / month');
    expect(page).toContain('Free trial: 14 days');
    expect(page).toContain('Nothing is charged today.');
    expect(page).toContain('First charge: $9.00 on');
    expect(page).not.toContain('Perpetual');
    expect(page).toContain('Had a free trial of it already?');

    await shop.api.call('POST', '/trials', { key: shop.dev.apiKey, body: { productId, email: BUYER, machineFingerprint: 'machine-a' } });
    shop.clock.advance(4 * DAY);
    const theirs = await shop.checkout({ productId, email: BUYER });
    const theirPage = (await shop.api.call<string>('GET', new URL(theirs.checkoutUrl).pathname.replace(/^\/v1/, ''))).body;
    expect(theirPage).toContain('Free trial: 10 days');
    expect(theirPage).not.toContain('Had a free trial of it already?');
  });
});
