import { describe, expect, test } from 'bun:test';
import { EMAIL, openTerminal, PAYS, PHONE } from './terminal.ts';

const GRACE = { email: 'grace@example.com', phone: '+15557654321' };

describe('sandbox: the browser Pay form saves what the terminal needs', () => {
  test('a buyer who paid with the Pay form has their phone and card on file: login, then purchase with that card', async () => {
    const t = await openTerminal();
    await t.payInBrowser({ email: EMAIL, phone: '+1 (555) 123-4567', cardNumber: PAYS });
    const token = await t.login();
    const plus = await t.anotherProduct();

    const p = await t.purchase(token, plus.id);
    const reply = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id });

    expect((await t.outbox(PHONE)).length).toBe(2);
    expect(p.cards).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', expMonth: 12 })]);
    expect(reply.status).toBe(200);
  });

  test('two buyers paying the same seller with the same test card (the pre-filled 4242…) each have their own saved card', async () => {
    const t = await openTerminal();
    await t.payInBrowser({ email: EMAIL, phone: PHONE, cardNumber: PAYS });
    await t.payInBrowser({ ...GRACE, cardNumber: PAYS });
    const adaToken = await t.login();
    const graceToken = await t.login(GRACE.email, GRACE.phone);

    const ada = await t.purchaseInit(adaToken);
    const grace = await t.purchaseInit(graceToken);

    expect(ada.body.cards).toEqual([expect.objectContaining({ last4: '4242' })]);
    expect(grace.body.cards).toEqual([expect.objectContaining({ last4: '4242' })]);
    expect(grace.body.cards[0]?.id).not.toBe(ada.body.cards[0]?.id);
  });
});
