import { describe, expect, test } from 'bun:test';
import { expectError, openTerminal, retryAfterOf, type Terminal } from './terminal.ts';

const UNKNOWN = 'nobody@example.com';
const sent = (t: Terminal) => (t.store.sqlite.query('SELECT COUNT(*) AS n FROM sms_outbox').get() as { n: number }).n;
const verifyUnknown = (t: Terminal, otpId: string, otp = '123456') => t.loginVerify({ email: UNKNOWN, otpId, otp });

describe('POST /auth/login/init for an e-mail with no customer looks like a known one', () => {
  test('200 with the same fields, a masked phone of the same shape, and nothing sent', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const known = await t.loginInit();
    const before = sent(t);

    const unknown = await t.loginInit(UNKNOWN);

    expect(unknown.status).toBe(known.status);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    // Real numbers have 11 to 13 digits with their country code, and so do decoys (one shape would give them away).
    expect(unknown.body).toEqual({ otpId: expect.stringMatching(/^otp_/), phoneMasked: expect.stringMatching(/^\+\*{7,9}\d{4}$/), expiresIn: 300 });
    expect(unknown.body.otpId).toHaveLength(known.body.otpId.length);
    expect(sent(t)).toBe(before);
  });

  test('the masked phone is the same on every call for that e-mail', async () => {
    const t = await openTerminal();

    const first = await t.loginInit(UNKNOWN);
    t.clock.advance(60 * 60_000);
    const second = await t.loginInit(UNKNOWN.toUpperCase());

    expect(second.body.phoneMasked).toBe(first.body.phoneMasked);
    expect(second.body.otpId).not.toBe(first.body.otpId);
  });

  test('verifying its challenge is 422 otp_invalid, whatever the code', async () => {
    const t = await openTerminal();
    const { body } = await t.loginInit(UNKNOWN);

    for (const otp of ['000000', '123456', '999999']) expectError(await verifyUnknown(t, body.otpId, otp), 422, 'otp_invalid');
  });

  test('its challenge runs out of attempts like a real one: the 6th try is 429 otp_attempts_exceeded', async () => {
    const t = await openTerminal();
    const { body } = await t.loginInit(UNKNOWN);
    for (let i = 0; i < 5; i++) await verifyUnknown(t, body.otpId);

    const sixth = await verifyUnknown(t, body.otpId);

    expectError(sixth, 429, 'otp_attempts_exceeded');
    expect(retryAfterOf(sixth)).toBeGreaterThan(0);
  });

  test('its challenge expires like a real one: 410 otp_expired at 300 s', async () => {
    const t = await openTerminal();
    const { body } = await t.loginInit(UNKNOWN);

    t.clock.advance(300_000);

    expectError(await verifyUnknown(t, body.otpId), 410, 'otp_expired');
  });

  test('the send limit applies: the 4th init within 15 minutes is 429 rate_limited with Retry-After', async () => {
    const t = await openTerminal();
    for (let i = 0; i < 3; i++) expect((await t.loginInit(UNKNOWN)).status).toBe(200);

    const fourth = await t.loginInit(UNKNOWN);

    expectError(fourth, 429, 'rate_limited');
    expect(retryAfterOf(fourth)).toBe(900);
  });

  test('the lock-out applies: after 20 wrong codes the next verify is 429 rate_limited for an hour', async () => {
    const t = await openTerminal();
    let otpId = '';
    for (let i = 0; i < 20; i++) {
      if (i % 4 === 0) {
        let init = await t.loginInit(UNKNOWN);
        if (init.status === 429) {
          t.clock.advance(retryAfterOf(init) * 1000);
          init = await t.loginInit(UNKNOWN);
        }
        otpId = init.body.otpId;
      }
      expectError(await verifyUnknown(t, otpId), 422, 'otp_invalid');
    }

    const locked = await verifyUnknown(t, otpId);

    expectError(locked, 429, 'rate_limited');
    expect(retryAfterOf(locked)).toBe(3600);
  });

  test('a real customer’s code does not pass for an unknown e-mail', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    expectError(await verifyUnknown(t, otpId, code), 422, 'otp_invalid');
  });
});

describe('a customer with no phone', () => {
  test('a customer who only holds a license granted by hand signs in by e-mailed code, answered like an unknown e-mail', async () => {
    const t = await openTerminal();
    const grant = await t.api.call('POST', '/developers/licenses', { key: t.dev.apiKey, body: { productId: t.dev.product.id, email: 'tester@example.com' } });
    expect(grant.status).toBe(201);

    const granted = await t.loginInit('tester@example.com');
    const unknown = await t.loginInit('nobody@example.com');

    expect(granted.status).toBe(200);
    expect(Object.keys(granted.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(granted.body.phoneMasked).toMatch(/^\+\*+\d{4}$/);
    expect(sent(t)).toBe(0);
    const code = await t.mailedCode('tester@example.com');
    const verified = await t.loginVerify({ email: 'tester@example.com', otpId: granted.body.otpId, otp: code });
    expect(verified.status).toBe(200);
    expect(verified.body.licenses.map((l: { id: string }) => l.id)).toEqual([grant.body.id ?? grant.body.license.id]);
  });
});

describe('malformed e-mails', () => {
  test('are 400 invalid_request, not a decoy', async () => {
    const t = await openTerminal();

    for (const email of ['', 'not-an-email', '@example.com']) expectError(await t.loginInit(email), 400, 'invalid_request');
  });
});
