import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresTestStore, type TestStore } from '../contracts/stores.ts';
import { depsFor } from '../support/deps.ts';
import { testApi, type Reply, type TestApi } from '../support/http.ts';
import { EMAIL, openTerminal } from '../terminal/terminal.ts';
import { mailedCode, trialShop } from '../trials/trial-shop.ts';
import { dieAfterWrite } from './idempotency-support.ts';

/**
 * Keyed trials whose process died after the trial was written but before the answer was kept (a
 * store that skips saving it): a retry, however late, answers the same trial again, replayed.
 */
const HOUR = 3_600_000;
let n = 0;
const newKey = () => `trial-${++n}-${crypto.randomUUID()}`;

function expectReplayOf(retry: Reply, first: Reply, status: number) {
  expect(retry.status).toBe(status);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(retry.body).toEqual(first.body);
}

function lostTrialRules(name: string, open: () => Promise<{ api: TestApi; close?: () => Promise<void> }>) {
  describe(`a keyed trial after a crash (${name})`, () => {
    let shop: Awaited<ReturnType<typeof trialShop>>;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const opened = await open();
      close = opened.close;
      shop = await trialShop(opened.api);
    });
    afterAll(async () => close?.());

    test('POST /trials with a secret key: the trial written is answered again an hour later, license, key and machine', async () => {
      const key = newKey();
      const fields = { email: `secret-${n}@example.com`, machineFingerprint: `machine-${key}` };
      dieAfterWrite(shop);
      const first = await shop.request(fields, shop.s.apiKey, { 'Idempotency-Key': key });
      shop.api.clock.advance(HOUR);

      const retry = await shop.request(fields, shop.s.apiKey, { 'Idempotency-Key': key });

      expect(first.status).toBe(201);
      expectReplayOf(retry, first, 201);
    });

    test('POST /trials/confirm: the trial the code started is answered again an hour later', async () => {
      const key = newKey();
      const email = `confirm-${n}@example.com`;
      const asked = await shop.request({ email, machineFingerprint: `machine-${key}` });
      const otp = await mailedCode(shop.api, email);
      dieAfterWrite(shop);
      const first = await shop.confirm(asked.body.trialRequestId, otp, shop.s.publishableKey, { 'Idempotency-Key': key });
      shop.api.clock.advance(HOUR);

      const retry = await shop.confirm(asked.body.trialRequestId, otp, shop.s.publishableKey, { 'Idempotency-Key': key });

      expect(first.status).toBe(201);
      expectReplayOf(retry, first, 201);
    });
  });
}

lostTrialRules('sqlite', async () => ({ api: testApi() }));

let pg: TestStore | undefined;
lostTrialRules('postgres', async () => {
  pg = await openPostgresTestStore();
  return { api: testApi({ deps: depsFor(pg.store) }), close: () => pg!.dispose() };
});

describe('a keyed terminal purchase that converted a trial, after a crash (sqlite)', () => {
  test('the converted license is answered again an hour later, not a second charge or license', async () => {
    const shop = await openTerminal();
    const { api, dev } = shop;
    await api.call('PATCH', `/developers/products/${dev.product.id}`, { key: dev.apiKey, body: { trialDays: 14 } });
    const trial = await api.call('POST', '/trials', { key: dev.apiKey, body: { productId: dev.product.id, email: EMAIL, machineFingerprint: 'machine-a' } });
    await shop.payInBrowser({}, (await shop.anotherProduct()).id);
    const token = await shop.login();
    const purchase = await shop.purchase(token);
    const body = { purchaseId: purchase.purchaseId, otpId: purchase.otpId, otp: purchase.code, cardId: purchase.cards[0]!.id };
    const key = newKey();
    dieAfterWrite(shop);
    const first = await shop.purchaseConfirm(token, body, { 'Idempotency-Key': key });
    api.clock.advance(HOUR);

    const retry = await shop.purchaseConfirm(token, body, { 'Idempotency-Key': key });

    expect(first.body.license.id).toBe(trial.body.license.id);
    expectReplayOf(retry, first, 200);
  });
});
