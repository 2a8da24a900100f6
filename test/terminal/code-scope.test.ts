import { describe, expect, test } from 'bun:test';
import { EMAIL, expectError, openTerminal, PHONE } from './terminal.ts';

const GRACE = { email: 'grace@example.com', phone: '+15557654321' };

describe('a code is scoped to what it was sent for', () => {
  test('a login code for one e-mail does not log in another customer', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    await t.payInBrowser(GRACE);
    const ada = await t.challenge();

    expectError(await t.loginVerify({ email: GRACE.email, otpId: ada.otpId, otp: ada.code }), 422, 'otp_invalid');
    expect((await t.loginVerify({ email: EMAIL, otpId: ada.otpId, otp: ada.code })).status).toBe(200);
  });

  test('a purchase code does not log in', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const token = await t.login();
    const plus = await t.anotherProduct();
    const purchase = await t.purchase(token, plus.id);

    expectError(await t.loginVerify({ otpId: purchase.otpId, otp: purchase.code }), 422, 'otp_invalid');
  });

  test('a login code does not confirm a purchase', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const token = await t.login();
    const plus = await t.anotherProduct();
    const init = await t.purchaseInit(token, plus.id);
    const login = await t.challenge();

    const reply = await t.purchaseConfirm(token, { purchaseId: init.body.purchaseId, otpId: login.otpId, otp: login.code, cardId: init.body.cards[0].id });

    expectError(reply, 422, 'otp_invalid');
    expect((await t.loginVerify({ otpId: login.otpId, otp: login.code })).status).toBe(200);
  });

  test('a purchase code confirms its own purchase only', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const token = await t.login();
    const plus = await t.anotherProduct();
    const first = await t.purchase(token, plus.id);
    const second = await t.purchaseInit(token, plus.id);

    const reply = await t.purchaseConfirm(token, { purchaseId: second.body.purchaseId, otpId: first.otpId, otp: first.code, cardId: first.cards[0]!.id });

    expectError(reply, 422, 'otp_invalid');
  });

  test('the purchase code is texted to the customer’s phone and says what it is for', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const token = await t.login();
    const plus = await t.anotherProduct();
    const init = await t.purchaseInit(token, plus.id);

    const otp = await t.purchaseOtp(token, init.body.purchaseId);

    expect(otp.status).toBe(200);
    expect(otp.body).toEqual({ otpId: expect.stringMatching(/^otp_/), phoneMasked: '+*******4567', expiresIn: 300 });
    const [message] = await t.outbox();
    expect(message!.to).toBe(PHONE);
    expect(message!.body).toMatch(/purchase/i);
    expect(message!.body.match(/\d{6}/g)).toHaveLength(1);
  });

  test('purchase code sends: the 4th for one purchase within 15 minutes is 429 rate_limited with Retry-After', async () => {
    const t = await openTerminal();
    await t.payInBrowser();
    const token = await t.login();
    const init = await t.purchaseInit(token, (await t.anotherProduct()).id);
    for (let i = 0; i < 3; i++) expect((await t.purchaseOtp(token, init.body.purchaseId)).status).toBe(200);

    const fourth = await t.purchaseOtp(token, init.body.purchaseId);

    expectError(fourth, 429, 'rate_limited');
    expect(fourth.headers.get('retry-after')).toBe('900');
  });
});
