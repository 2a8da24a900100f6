import { describe, expect, test } from 'bun:test';
import { EMAIL, expectError, openTerminal, retryAfterOf, wrongCode, type Terminal } from './terminal.ts';

const HOUR = 3_600_000;

/** A fresh login challenge; when the send limit refuses it, the clock moves on by Retry-After first. */
async function freshChallenge(t: Terminal, email = EMAIL) {
  let init = await t.loginInit(email);
  if (init.status === 429) {
    t.clock.advance(retryAfterOf(init) * 1000);
    init = await t.loginInit(email);
  }
  expect(init.status).toBe(200);
  return { otpId: init.body.otpId as string, code: await t.mailedCode() };
}

/**
 * `n` wrong codes in a row, at most 4 per challenge (so none runs out of attempts), over as many
 * challenges as needed. Returns the last challenge, which can still take one more try.
 */
async function wrongCodes(t: Terminal, n: number) {
  let current = await freshChallenge(t);
  let onCurrent = 0;
  for (let i = 0; i < n; i++) {
    if (onCurrent === 4) [current, onCurrent] = [await freshChallenge(t), 0];
    expectError(await t.loginVerify({ otpId: current.otpId, otp: wrongCode(current.code) }), 422, 'otp_invalid');
    onCurrent++;
  }
  return current;
}

describe('login code sends: at most 3 per e-mail per 15 minutes', () => {
  test('the 4th init within 15 minutes is 429 rate_limited with Retry-After in seconds, and nothing is sent', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    for (let i = 0; i < 3; i++) expect((await t.loginInit()).status).toBe(200);

    const fourth = await t.loginInit();

    expectError(fourth, 429, 'rate_limited');
    expect(retryAfterOf(fourth)).toBe(900);
    expect(await t.mail()).toHaveLength(3);
  });

  test('the wait counts down with the clock: 1 s before the window ends still refused, at its end allowed', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    for (let i = 0; i < 3; i++) await t.loginInit();

    t.clock.advance(900_000 - 1_000);
    const almost = await t.loginInit();
    t.clock.advance(1_000);
    const after = await t.loginInit();

    expectError(almost, 429, 'rate_limited');
    expect(retryAfterOf(almost)).toBe(1);
    expect(after.status).toBe(200);
    expect(await t.mail()).toHaveLength(4);
  });

  test('the limit follows the e-mail however it is written', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    for (const email of [EMAIL, EMAIL.toUpperCase(), ` ${EMAIL}`]) await t.loginInit(email);

    expectError(await t.loginInit('Ada@Example.com'), 429, 'rate_limited');
  });

  test('one customer’s sends do not count against another’s', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await t.payInBrowser({ email: 'grace@example.com', phone: '+15557654321' });
    for (let i = 0; i < 3; i++) await t.loginInit();

    expect((await t.loginInit('grace@example.com')).status).toBe(200);
  });
});

describe('20 consecutive wrong codes lock the customer’s logins for an hour', () => {
  test('after 20 wrong codes over several challenges, the next verify is 429 rate_limited even with the right code', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const last = await wrongCodes(t, 20);

    const reply = await t.loginVerify({ otpId: last.otpId, otp: last.code });

    expectError(reply, 429, 'rate_limited');
    expect(retryAfterOf(reply)).toBe(3600);
  });

  test('the lock holds for the whole hour, then a new code logs in', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const last = await wrongCodes(t, 20);

    t.clock.advance(HOUR - 1_000);
    // The last challenge has expired by now (a dead challenge is 410, not counted): ask for a new one.
    const whileLocked = await t.loginInit();
    const stillLocked = await t.loginVerify({ otpId: whileLocked.body.otpId, otp: last.code });
    t.clock.advance(1_000);
    const { otpId, code } = await t.challenge();
    const after = await t.loginVerify({ otpId, otp: code });

    expectError(stillLocked, 429, 'rate_limited');
    expect(retryAfterOf(stillLocked)).toBe(1);
    expect(after.status).toBe(200);
  });

  test('while locked, a new init answers as usual but sends nothing', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await wrongCodes(t, 20);
    const before = (await t.mail()).length;
    t.clock.advance(15 * 60_000);

    const init = await t.loginInit();

    expect(init.status).toBe(200);
    expect(init.body).toEqual({ otpId: expect.any(String), phoneMasked: expect.stringMatching(/^\+\*+\d{4}$/), expiresIn: 300 });
    expect(await t.mail()).toHaveLength(before);
  });

  test('a new code does not reset the count: 19 wrong, a new code, 1 wrong, and the right code is refused', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await wrongCodes(t, 19);
    const fresh = await freshChallenge(t);

    expectError(await t.loginVerify({ otpId: fresh.otpId, otp: wrongCode(fresh.code) }), 422, 'otp_invalid');
    const reply = await t.loginVerify({ otpId: fresh.otpId, otp: fresh.code });

    expectError(reply, 429, 'rate_limited');
  });

  test('a success resets the count: 19 wrong, a login, 1 wrong, and the right code still works', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const last = await wrongCodes(t, 19);
    expect((await t.loginVerify({ otpId: last.otpId, otp: last.code })).status).toBe(200);
    const fresh = await freshChallenge(t);

    expectError(await t.loginVerify({ otpId: fresh.otpId, otp: wrongCode(fresh.code) }), 422, 'otp_invalid');
    const reply = await t.loginVerify({ otpId: fresh.otpId, otp: fresh.code });

    expect(reply.status).toBe(200);
  });

  test('one customer’s lock does not lock another customer', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await t.payInBrowser({ email: 'grace@example.com', phone: '+15557654321' });
    await wrongCodes(t, 20);

    const other = await t.challenge('grace@example.com', '+15557654321');
    const reply = await t.loginVerify({ email: 'grace@example.com', otpId: other.otpId, otp: other.code });

    expect(reply.status).toBe(200);
  });
});
