import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { cliWorld, connectSandbox, sellerWithProduct, type CliWorld } from './support.ts';

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld('licensing-cli-renewal-');
});
afterAll(async () => {
  await world.close();
});

const storedKey = (config: string, productId: string): string => JSON.parse(readFileSync(config, 'utf8')).licenses[productId].licenseKey;

describe('the CLI keeps a renewed key', () => {
  test('after a subscription renews, status validates online and stores the re-signed key in the config', async () => {
    const seller = await sellerWithProduct(world);
    await connectSandbox(world, seller.apiKey);
    const product = await (await world.api('POST', '/developers/products', { key: seller.apiKey, body: { name: 'Monthly', price: 900, currency: 'usd', interval: 'month' } })).json();
    const init = await (await world.api('POST', '/checkout/init', { key: seller.apiKey, body: { productId: product.id } })).json();
    await world.api('POST', `/sandbox/checkout/${init.sessionId}/pay`, { form: { email: 'renewing@example.com', phone: '+15557659001', cardNumber: '4242424242424242' } });
    const paid = await (await world.api('GET', `/checkout/status/${init.sessionId}`)).json();
    expect(paid.status).toBe('complete');
    const buyer = world.newConfig();
    expect((await world.cli(buyer, ['activate', paid.licenseKey, '--publishable-key', seller.publishableKey])).code).toBe(0);

    const clock = await world.api('POST', '/sandbox/clock', { key: seller.apiKey, body: { advanceDays: 31 } });
    expect(clock.status).toBe(200);
    const status = await world.cli(buyer, ['status', '--json']);

    expect(status.code).toBe(0);
    const renewed = storedKey(buyer, product.id);
    expect(renewed).not.toBe(paid.licenseKey);
    const current = await (await world.api('GET', `/licenses/${paid.license.id}`, { key: seller.apiKey })).json();
    expect(current.expiresAt).toBeGreaterThan(paid.license.expiresAt);
    expect(status.json()).toMatchObject({ valid: true, licenses: [{ licenseId: paid.license.id, valid: true, renewedLicenseKey: renewed, license: { expiresAt: current.expiresAt } }] });
  });
});
