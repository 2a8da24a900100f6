import { describe, expect, test } from 'bun:test';
import { signNewLicense } from '../../src/app/licenses/issue-license.ts';
import { issueOrConvert } from '../../src/app/trials/convert-trial.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../contracts/stores.ts';
import { EMAIL, openTerminal, type Terminal } from '../terminal/terminal.ts';
import { mailedCode } from './trial-shop.ts';

const DAY = 86_400_000;

/** A sandbox shop whose Pro (a 365-day license) offers a 14-day trial, and Ada's trial of it on machine-a. */
async function shopWithTrial() {
  const shop = await openTerminal();
  const { api, dev } = shop;
  await api.call('PATCH', `/developers/products/${dev.product.id}`, { key: dev.apiKey, body: { trialDays: 14, licenseDays: 365, maxMachines: 3 } });
  // The buyer's application asks with the publishable key; Ada enters the code she was mailed.
  const asked = await api.call('POST', '/trials', { key: dev.publishableKey, body: { productId: dev.product.id, email: EMAIL, machineFingerprint: 'machine-a' } });
  if (asked.status !== 202) throw new Error(JSON.stringify(asked.body));
  const otp = await mailedCode(api, EMAIL);
  const trial = await api.call('POST', '/trials/confirm', { key: dev.publishableKey, body: { trialRequestId: asked.body.trialRequestId, otp } });
  if (trial.status !== 201) throw new Error(JSON.stringify(trial.body));
  return { shop, trial: trial.body as { license: { id: string }; licenseKey: string } };
}

/** What a conversion must keep and change, read from the store. */
async function expectConverted(shop: Terminal, trial: { license: { id: string }; licenseKey: string }, license: { id: string }, paidAt: number) {
  expect(license.id).toBe(trial.license.id);
  const stored = (await shop.api.deps.licenses.findById(trial.license.id))!;
  expect(stored).toMatchObject({ trial: false, expiresAt: paidAt + 365 * DAY });
  expect(stored.licenseKey).not.toBe(trial.licenseKey);
  expect((await shop.api.deps.licenses.listActivations(stored.id)).map((a) => a.machineFingerprint)).toEqual(['machine-a']);
  const validated = await shop.api.call('POST', '/licenses/validate', { key: shop.dev.publishableKey, body: { licenseKey: stored.licenseKey, machineFingerprint: 'machine-a' } });
  expect(validated.body).toMatchObject({ valid: true, license: { id: stored.id, expiresAt: paidAt + 365 * DAY } });
  return stored;
}

describe('buying a product converts the buyer’s trial in place', () => {
  test('by sandbox checkout: same license id and machines, trial false, the paid term, a fresh key', async () => {
    const { shop, trial } = await shopWithTrial();
    shop.clock.advance(3 * DAY);

    const sessionId = await shop.payInBrowser();

    const status = (await shop.status(sessionId)).body;
    expect(status.status).toBe('complete');
    const stored = await expectConverted(shop, trial, status.license, shop.clock.now());
    expect(status.licenseKey).toBe(stored.licenseKey);
    // The trial's owner proved the e-mail: the trial key's holder is handed the paid key, as the
    // holder of a renewed license's old key is.
    const withTrialKey = await shop.api.call('POST', '/licenses/validate', { key: shop.dev.publishableKey, body: { licenseKey: trial.licenseKey, machineFingerprint: 'machine-a' } });
    expect(withTrialKey.body).toMatchObject({ valid: true, license: { id: stored.id, status: 'active', expiresAt: stored.expiresAt, licenseKey: stored.licenseKey } });
    const withPaidKey = await shop.api.call('POST', '/licenses/validate', { key: shop.dev.publishableKey, body: { licenseKey: stored.licenseKey, machineFingerprint: 'machine-a' } });
    expect(withPaidKey.body).toMatchObject({ valid: true, license: { id: stored.id } });
    expect(withPaidKey.body.license).not.toHaveProperty('licenseKey');
    // The seller's webhooks hear of it as a conversion, not as a new license.
    const events = shop.store.sqlite.query("SELECT type FROM outgoing_events WHERE data LIKE ? ORDER BY created_at, rowid").all(`%${stored.id}%`) as { type: string }[];
    expect(events.map((e) => e.type).filter((type) => type.startsWith('license.'))).toEqual(['license.created', 'license.converted']);
  });

  test('by terminal purchase: the same, and the order is recorded once', async () => {
    const { shop, trial } = await shopWithTrial();
    // A checkout of another product saves Ada's phone and card with this seller.
    const other = await shop.anotherProduct();
    await shop.payInBrowser({}, other.id);
    shop.clock.advance(DAY);
    const token = await shop.login();
    const purchase = await shop.purchase(token);

    const body = { purchaseId: purchase.purchaseId, otpId: purchase.otpId, otp: purchase.code, cardId: purchase.cards[0]!.id };
    const confirmed = await shop.purchaseConfirm(token, body);
    const again = await shop.purchaseConfirm(token, body);

    expect(confirmed.status).toBe(200);
    const stored = await expectConverted(shop, trial, confirmed.body.license, shop.clock.now());
    expect(confirmed.body.licenseKey).toBe(stored.licenseKey);
    expect(again.body.license.id).toBe(stored.id);
    const order = await shop.api.deps.orders.findById(`ord_${purchase.purchaseId.slice('pur_'.length)}`);
    expect(order).toMatchObject({ source: 'purchase', sourceId: purchase.purchaseId, licenseId: stored.id, amount: purchase.amount, status: 'paid' });
  });

  test('an expired trial converts too: the buyer keeps their machines', async () => {
    const { shop, trial } = await shopWithTrial();
    shop.clock.advance(30 * DAY);

    const sessionId = await shop.payInBrowser();

    await expectConverted(shop, trial, (await shop.status(sessionId)).body.license, shop.clock.now());
  });

  test('a revoked trial is not converted: the purchase gets a license of its own', async () => {
    const { shop, trial } = await shopWithTrial();
    await shop.api.call('POST', `/licenses/${trial.license.id}/revoke`, { key: shop.dev.apiKey });

    const sessionId = await shop.payInBrowser();

    const license = (await shop.status(sessionId)).body.license;
    expect(license.id).not.toBe(trial.license.id);
    expect((await shop.api.deps.licenses.findById(trial.license.id))!.storedStatus).toBe('revoked');
  });

  test('another buyer’s purchase leaves the trial alone', async () => {
    const { shop, trial } = await shopWithTrial();

    const sessionId = await shop.payInBrowser({ email: 'grace@example.com', phone: '+15557654321' });

    expect((await shop.status(sessionId)).body.license.id).not.toBe(trial.license.id);
    expect((await shop.api.deps.licenses.findById(trial.license.id))!.trial).toBe(true);
  });

  test('the holder of a converted trial’s key gets the paid key on every check, like a renewal’s; another seller’s key gets not_found', async () => {
    const { shop, trial } = await shopWithTrial();
    await shop.payInBrowser();
    const paid = (await shop.api.deps.licenses.findById(trial.license.id))!;

    const again = await shop.api.call('POST', '/licenses/validate', { key: shop.dev.publishableKey, body: { licenseKey: trial.licenseKey, machineFingerprint: 'machine-a' } });
    const otherSeller = await seller(shop.api);
    const foreign = await shop.api.call('POST', '/licenses/validate', { key: otherSeller.publishableKey, body: { licenseKey: trial.licenseKey, machineFingerprint: 'machine-a' } });

    expect(again.body.license.licenseKey).toBe(paid.licenseKey);
    expect(foreign.body).toEqual({ valid: false, reason: 'not_found' });
  });

  test('a trial key from before e-mailed codes (no `proven` claim) still names no license once converted', async () => {
    const shop = await openTerminal();
    const { api, dev } = shop;
    await api.call('PATCH', `/developers/products/${dev.product.id}`, { key: dev.apiKey, body: { trialDays: 14, licenseDays: 365 } });
    // Signed as trials were before: anyone could start one for any address.
    const now = api.clock.now();
    const license = await signNewLicense(api.deps, { developerId: dev.id, productId: dev.product.id, customerId: 'cus_legacy', features: [], issuedAt: now, expiresAt: now + 14 * DAY, maxMachines: 3, trial: true });
    const machine = { id: api.deps.ids.next('act'), machineFingerprint: 'machine-a', name: null, at: now };
    await api.deps.trials.start({ customer: { id: 'cus_legacy', email: EMAIL, phone: null, phoneVerifiedAt: null, createdAt: now }, license, keyHash: api.deps.hashing.hash(license.licenseKey), machine });

    await shop.payInBrowser();

    expect((await api.deps.licenses.findById(license.id))!.trial).toBe(false);
    const withTrialKey = await api.call('POST', '/licenses/validate', { key: dev.publishableKey, body: { licenseKey: license.licenseKey, machineFingerprint: 'machine-a' } });
    expect(withTrialKey.body).toEqual({ valid: false, reason: 'not_found' });
  });
});

/** Two payments for one trial at once, on a real store: one converts it, the other gets a new license. */
async function raceTwoConversions(opened: TestStore) {
  const api: TestApi = testApi({ deps: depsFor(opened.store) });
  const s = await seller(api);
  await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: 14, licenseDays: 365 } });
  const trial = (await api.call('POST', '/trials', { key: s.apiKey, body: { productId: s.product.id, email: 'ada@example.com', machineFingerprint: 'machine-a' } })).body;
  const now = api.clock.now();
  const terms = { developerId: s.id, productId: s.product.id, customerId: trial.license.customerId, features: ['pro'], issuedAt: now, expiresAt: now + 365 * DAY, maxMachines: 1 };

  const [first, second] = await Promise.all([issueOrConvert(api.deps, terms, {}), issueOrConvert(api.deps, terms, {})]);

  expect([first!.id, second!.id].filter((id) => id === trial.license.id)).toHaveLength(1);
  expect(first!.id).not.toBe(second!.id);
  expect([first!.trial, second!.trial]).toEqual([false, false]);
  const licenses = await api.deps.licenses.listByCustomer(trial.license.customerId);
  expect(licenses.map((l) => l.trial)).toEqual([false, false]);
}

describe('two purchases converting one trial at once', () => {
  test('on SQLite: one converts the trial, the other is issued a license of its own', async () => {
    const opened = await openSqliteTestStore();
    try {
      await raceTwoConversions(opened);
    } finally {
      await opened.dispose();
    }
  });

  test('on PostgreSQL: the same', async () => {
    const opened = await openPostgresTestStore();
    try {
      await raceTwoConversions(opened);
    } finally {
      await opened.dispose();
    }
  });
});
