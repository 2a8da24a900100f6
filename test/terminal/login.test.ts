import { describe, expect, test } from 'bun:test';
import { DEVICE, EMAIL, expectError, openTerminal, PHONE, retryAfterOf, wrongCode } from './terminal.ts';

describe('POST /auth/login/init (sandbox)', () => {
  test('a checkout’s buyer (no confirmed phone): 200 {otpId, phoneMasked, expiresIn: 300}, the code by e-mail, no text', async () => {
    const t = await openTerminal();
    await t.payInBrowser();

    const reply = await t.loginInit();

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ otpId: expect.stringMatching(/^otp_/), phoneMasked: expect.stringMatching(/^\+\*+\d{4}$/), expiresIn: 300 });
    expect(reply.body.phoneMasked).not.toBe('+*******4567'); // the checkout's phone is no factor: a keyed decoy
    expect(await t.outbox()).toEqual([]);
    const [mail] = await t.mail();
    expect(mail!.to).toBe(EMAIL);
    expect(mail!.text.match(/\b\d{6}\b/g)).toHaveLength(1);
  });

  test('a confirmed phone: texts exactly one message, to that phone, holding a 6-digit code, and mails nothing', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await t.login();
    const mailsBefore = (await t.mail()).length;
    const textsBefore = (await t.outbox()).length;

    const reply = await t.loginInit();

    expect(reply.body.phoneMasked).toBe('+*******4567');
    const messages = await t.outbox();
    expect(messages).toHaveLength(textsBefore + 1);
    expect(messages[0]!.to).toBe(PHONE);
    expect(messages[0]!.body.match(/\d{6}/g)).toHaveLength(1);
    expect(messages[0]!.body).not.toMatch(/\d{7,}/);
    expect(await t.mail()).toHaveLength(mailsBefore);
  });

  test('the e-mail is matched whatever its case and surrounding spaces', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await t.login();

    const reply = await t.loginInit(`  ${EMAIL.toUpperCase()} `);

    expect(reply.body.phoneMasked).toBe('+*******4567');
  });
});

describe('POST /auth/login/verify (sandbox)', () => {
  test('the right code: an idt_ identity token and the customer’s licenses, with productName and a licenseKey that validates', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    const reply = await t.loginVerify({ otpId, otp: code });

    expect(reply.status).toBe(200);
    expect(reply.body.identityToken).toMatch(/^idt_[A-Za-z0-9_-]{20,}$/);
    expect(reply.body.licenses).toEqual([
      expect.objectContaining({ productId: t.dev.product.id, productName: 'Pro', status: 'active', licenseKey: expect.any(String) }),
    ]);
    expect((await t.validate(reply.body.licenses[0].licenseKey)).body).toMatchObject({ valid: true });
  });

  test('a wrong code is 422 otp_invalid, and the same challenge still works with the right code', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    expectError(await t.loginVerify({ otpId, otp: wrongCode(code) }), 422, 'otp_invalid');
    const right = await t.loginVerify({ otpId, otp: code });

    expect(right.status).toBe(200);
  });

  test('malformed codes (letters, 5 or 7 digits, empty) are 422 otp_invalid, not 5xx', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    for (const otp of ['abcdef', code.slice(0, 5), `${code}0`, '']) expectError(await t.loginVerify({ otpId, otp }), 422, 'otp_invalid');
  });

  test('an unknown otpId is 422 otp_invalid', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { code } = await t.challenge();

    expectError(await t.loginVerify({ otpId: 'otp_doesnotexist', otp: code }), 422, 'otp_invalid');
  });

  test('a code works once: the same code again is 422 otp_invalid', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();
    await t.loginVerify({ otpId, otp: code });

    expectError(await t.loginVerify({ otpId, otp: code }), 422, 'otp_invalid');
  });

  test('10 concurrent verifies with the right code: exactly one 200, the others refused', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => t.loginVerify({ otpId, otp: code, deviceFingerprint: `device-${i}` })));

    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) expect([422, 429]).toContain(r.status);
    const tokens = t.store.sqlite.query('SELECT COUNT(*) AS n FROM identity_tokens').get() as { n: number };
    expect(tokens.n).toBe(1);
  });

  test('after 5 wrong codes: 429 otp_attempts_exceeded with Retry-After, even with the right code', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();
    for (let i = 0; i < 5; i++) expectError(await t.loginVerify({ otpId, otp: wrongCode(code) }), 422, 'otp_invalid');

    const reply = await t.loginVerify({ otpId, otp: code });

    expectError(reply, 429, 'otp_attempts_exceeded');
    expect(retryAfterOf(reply)).toBeGreaterThan(0);
    expect(retryAfterOf(reply)).toBeLessThanOrEqual(300);
  });

  test('the fifth try may still be the right one', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();
    for (let i = 0; i < 4; i++) await t.loginVerify({ otpId, otp: wrongCode(code) });

    expect((await t.loginVerify({ otpId, otp: code })).status).toBe(200);
  });

  test('the code still works 299 999 ms after it was sent', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    t.clock.advance(299_999);

    expect((await t.loginVerify({ otpId, otp: code })).status).toBe(200);
  });

  test('at exactly 300 s the code is 410 otp_expired', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    t.clock.advance(300_000);

    expectError(await t.loginVerify({ otpId, otp: code }), 410, 'otp_expired');
  });

  test('the token is bound to the deviceFingerprint given at login', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const { otpId, code } = await t.challenge();

    const reply = await t.loginVerify({ otpId, otp: code, deviceFingerprint: DEVICE });

    const stored = t.store.sqlite.query('SELECT device_fingerprint AS fp FROM identity_tokens').get() as { fp: string };
    expect(reply.status).toBe(200);
    expect(stored.fp).toBe(DEVICE);
  });
});
