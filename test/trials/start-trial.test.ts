import { describe, expect, test } from 'bun:test';
import { sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { trialShop } from './trial-shop.ts';
import { expectError } from '../http/fixtures.ts';

const DAY = 86_400_000;

describe('POST /trials', () => {
  test('starts the product’s trial on this machine: a trial license of trialDays with the machine activated', async () => {
    const { api, s, start, validate } = await trialShop();
    const now = api.clock.now();

    const reply = await start({ name: 'ada-laptop' });

    expect(reply.status).toBe(201);
    expect(reply.body.license).toMatchObject({ productId: s.product.id, status: 'active', features: ['pro'], issuedAt: now, expiresAt: now + 14 * DAY, machineFingerprint: 'machine-a', trial: true });
    expect(reply.body.activation).toMatchObject({ name: 'ada-laptop', machineFingerprint: 'machine-a', createdAt: now });
    expect(await validate(reply.body.licenseKey, 'machine-a')).toMatchObject({ status: 200, body: { valid: true, license: { id: reply.body.license.id, expiresAt: now + 14 * DAY } } });
  });

  test('the trial ends after trialDays: the key is then expired', async () => {
    const { api, start, validate } = await trialShop();
    const { licenseKey } = (await start()).body;

    api.clock.advance(14 * DAY);

    expect((await validate(licenseKey, 'machine-a')).body).toMatchObject({ valid: false, reason: 'expired' });
  });

  test('one trial per e-mail: a second one, however the address is written, is 409 trial_already_used for the e-mail', async () => {
    const { start } = await trialShop();
    await start();

    const again = await start({ email: '  ADA@Example.com ', machineFingerprint: 'machine-b' });

    expectError(again, 409, 'trial_already_used');
    expect(again.body.error.details).toEqual({ reason: 'email' });
  });

  test('one trial per machine: another e-mail on the same machine is 409 trial_already_used for the machine', async () => {
    const { start } = await trialShop();
    await start();

    const again = await start({ email: 'grace@example.com' });

    expectError(again, 409, 'trial_already_used');
    expect(again.body.error.details).toEqual({ reason: 'machine' });
  });

  test('the same e-mail and machine may try another product', async () => {
    const { api, s, start } = await trialShop();
    await start();
    const other = await api.call('POST', '/developers/products', { key: s.apiKey, body: { name: 'Other', price: 500, currency: 'usd', trialDays: 7 } });

    expect((await start({ productId: other.body.id })).status).toBe(201);
  });

  test('a product without a trial is 409 trial_not_offered; an inactive one is not on sale (404)', async () => {
    const { api, s, start } = await trialShop();
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: null } });
    expectError(await start(), 409, 'trial_not_offered');

    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: 14, active: false } });
    const inactive = await start();
    expectError(inactive, 404, 'not_found');
    expect(inactive.body.error.message).toContain('not on sale');
  });

  test('another seller’s product, or an unknown one, is 404 not_found', async () => {
    const { api, start } = await trialShop();
    const other = await seller(api);

    expectError(await start({}, other.publishableKey), 404, 'not_found');
    expectError(await start({ productId: 'prod_unknown' }), 404, 'not_found');
  });

  test('bad input is 400 naming the field; no key is 401', async () => {
    const { start, api } = await trialShop();
    for (const [field, body] of [['email', { email: 'not-an-address' }], ['machineFingerprint', { machineFingerprint: '' }], ['machineFingerprint', { machineFingerprint: 'two words' }], ['name', { name: 'a\nb' }]] as const) {
      const reply = await start(body);
      expectError(reply, 400, 'invalid_request');
      expect(reply.body.error.details.issues[0].field).toBe(field);
    }
    // A NUL byte is refused at the edge, before any field is read (PostgreSQL text cannot hold one).
    expectError(await start({ machineFingerprint: 'has\u0000nul' }), 400, 'invalid_request');
    expectError(await api.call('POST', '/trials', { body: { productId: 'p', email: 'a@example.com', machineFingerprint: 'm' } }), 401, 'unauthorized');
  });

  test('a flood from one address with a publishable key is cut off with 429; the seller’s secret key is not counted', async () => {
    const { deps } = sqliteDeps();
    const api = testApi({ deps: { ...deps, settings: testSettings({ addressLimits: { trialsPerHour: 3 }, trustedProxyHeader: 'x-forwarded-for' }) } });
    const { s, start } = await trialShop(api);
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 3; i++) expect((await start({ email: `u${i}@example.com`, machineFingerprint: `m-${i}` }, s.publishableKey, from('203.0.113.7'))).status).toBe(201);

    const flooded = await start({ email: 'u9@example.com', machineFingerprint: 'm-9' }, s.publishableKey, from('203.0.113.7'));

    expectError(flooded, 429, 'rate_limited');
    expect(flooded.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await start({ email: 'u9@example.com', machineFingerprint: 'm-9' }, s.publishableKey, from('203.0.113.8'))).status).toBe(201);
    expect((await start({ email: 'u10@example.com', machineFingerprint: 'm-10' }, s.apiKey, from('203.0.113.7'))).status).toBe(201);
  });

  test('100 concurrent starts for one e-mail and 100 for one machine: exactly one trial each', async () => {
    const { s, start } = await trialShop();
    // The seller's secret key: not counted per address, so every start reaches the store.
    const sameEmail = await Promise.all(Array.from({ length: 100 }, (_, i) => start({ email: 'same@example.com', machineFingerprint: `own-${i}` }, s.apiKey)));
    const sameMachine = await Promise.all(Array.from({ length: 100 }, (_, i) => start({ email: `own-${i}@example.com`, machineFingerprint: 'same-machine' }, s.apiKey)));

    expect(sameEmail.filter((r) => r.status === 201)).toHaveLength(1);
    expect(sameEmail.filter((r) => r.status === 409 && r.body.error.details.reason === 'email')).toHaveLength(99);
    expect(sameMachine.filter((r) => r.status === 201)).toHaveLength(1);
    expect(sameMachine.filter((r) => r.status === 409 && r.body.error.details.reason === 'machine')).toHaveLength(99);
  });
});

describe('a trial license on more machines', () => {
  test('activating it on a machine that already had the product’s trial: 409 trial_already_used; another machine is fine', async () => {
    const { start, activate } = await trialShop();
    await start({ email: 'first@example.com', machineFingerprint: 'machine-a' });
    const { licenseKey } = (await start({ email: 'second@example.com', machineFingerprint: 'machine-b' })).body;

    const refused = await activate(licenseKey, 'machine-a');

    expectError(refused, 409, 'trial_already_used');
    expect(refused.body.error.details).toEqual({ reason: 'machine' });
    expect((await activate(licenseKey, 'machine-c')).status).toBe(201);
  });

  test('validating it on such a machine does not bind it there: machine_mismatch', async () => {
    const { start, validate } = await trialShop();
    await start({ email: 'first@example.com', machineFingerprint: 'machine-a' });
    const { licenseKey } = (await start({ email: 'second@example.com', machineFingerprint: 'machine-b' })).body;

    expect((await validate(licenseKey, 'machine-a')).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    expect((await validate(licenseKey, 'machine-c')).body.valid).toBe(true);
  });

  test('a machine it claimed cannot start the product’s trial for someone else', async () => {
    const { start, activate } = await trialShop();
    const { licenseKey } = (await start()).body;
    await activate(licenseKey, 'machine-c');

    const reply = await start({ email: 'grace@example.com', machineFingerprint: 'machine-c' });

    expectError(reply, 409, 'trial_already_used');
    expect(reply.body.error.details).toEqual({ reason: 'machine' });
  });
});
