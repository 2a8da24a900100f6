import { afterAll, describe, expect, test } from 'bun:test';
import { startFakeStripe } from '../support/fake-stripe.ts';
import { ADA, GRACE, openPurchaseShop, type Mode } from './purchase-modes.ts';
import { expectError, wrongCode } from './terminal.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());

describe.each([['sandbox'], ['stripe']] as [Mode][])('terminal purchase (%s)', (mode) => {
  /** Ada bought once in the browser (card 4242 saved) and logged in; the seller has a second product. */
  async function ready() {
    const shop = await openPurchaseShop(mode, fake);
    await shop.saveCard('pays');
    const token = await shop.t.login();
    const plus = await shop.t.anotherProduct('Pro Plus', 2999);
    return { ...shop, token, plus };
  }

  test('init answers the product’s price and the cards saved with its seller', async () => {
    const { t, token, plus } = await ready();

    const reply = await t.purchaseInit(token, plus.id);

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      purchaseId: expect.stringMatching(/^pur_/),
      productId: plus.id,
      productName: 'Pro Plus',
      amount: 2999,
      currency: 'usd',
      cards: [{ id: expect.stringMatching(/^card_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) }],
    });
  });

  test('a card saved with one seller is not offered for another seller’s product, and cannot pay for it', async () => {
    const { t, token, saveCard } = await ready();
    const other = await t.otherSeller();
    const offer = await t.purchaseInit(token, other.product.id);
    const mine = await t.purchaseInit(token, t.dev.product.id);
    const otp = await t.purchaseOtp(token, offer.body.purchaseId);

    const reply = await t.purchaseConfirm(token, {
      purchaseId: offer.body.purchaseId, otpId: otp.body.otpId, otp: await t.latestCode(), cardId: mine.body.cards[0].id,
    });

    expect(offer.body).toMatchObject({ amount: 4900, currency: 'eur', cards: [] });
    expectError(reply, 404, 'not_found');
    await saveCard('declines', ADA, { apiKey: other.apiKey, productId: other.product.id });
    expect((await t.purchaseInit(token, other.product.id)).body.cards.map((c: { last4: string }) => c.last4)).toEqual(['0341']);
  });

  test('confirm with the right code and a saved card: {license, licenseKey} that validates', async () => {
    const { t, token, plus } = await ready();
    const p = await t.purchase(token, plus.id);

    const reply = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id });

    expect(reply.status).toBe(200);
    expect(reply.body.license).toMatchObject({ productId: plus.id, status: 'active', features: ['plus'] });
    expect((await t.validate(reply.body.licenseKey)).body).toMatchObject({ valid: true });
    expect((await t.api.call('GET', `/licenses/${reply.body.license.id}`, { headers: t.bearer(token) })).status).toBe(200);
  });

  test('a wrong code is 422 otp_invalid and charges nothing; the right code then confirms', async () => {
    const { t, token, plus, chargesOf } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, cardId: p.cards[0]!.id };

    expectError(await t.purchaseConfirm(token, { ...body, otp: wrongCode(p.code) }), 422, 'otp_invalid');
    expect(chargesOf(p.purchaseId)).toBe(0);
    expect((await t.purchaseConfirm(token, { ...body, otp: p.code })).status).toBe(200);
  });

  test('confirming again returns the same license and charges nothing more', async () => {
    const { t, token, plus, chargesOf, licensesFor } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };
    const first = await t.purchaseConfirm(token, body);

    const again = await t.purchaseConfirm(token, body);

    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(chargesOf(p.purchaseId)).toBe(1);
    expect(licensesFor(plus.id)).toHaveLength(1);
  });

  test('10 concurrent confirms: one license for the product and one charge', async () => {
    const { t, token, plus, chargesOf, paidCharges, licensesFor } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };

    const replies = await Promise.all(Array.from({ length: 10 }, () => t.purchaseConfirm(token, body)));

    const ok = replies.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.license.id)).size).toBe(1);
    for (const r of replies) expect(r.status).toBeLessThan(500);
    expect(licensesFor(plus.id)).toHaveLength(1);
    expect(chargesOf(p.purchaseId)).toBe(1);
    expect(paidCharges(p.purchaseId)).toBe(1);
    const { otpId, code } = await t.challenge();
    const login = await t.loginVerify({ otpId, otp: code });
    expect(login.body.licenses.filter((l: { productId: string }) => l.productId === plus.id)).toHaveLength(1);
  });

  test('5 concurrent confirms with the right code (within the code’s 5 attempts) all answer 200 with the same license', async () => {
    const { t, token, plus } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };

    const replies = await Promise.all(Array.from({ length: 5 }, () => t.purchaseConfirm(token, body)));

    expect(replies.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(new Set(replies.map((r) => r.body.license.id)).size).toBe(1);
  });

  test('10 concurrent confirms with the right code: every attempt counts (issue 9), so each answers the one license or 429 otp_attempts_exceeded', async () => {
    const { t, token, plus, chargesOf } = await ready();
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: p.cards[0]!.id };

    const replies = await Promise.all(Array.from({ length: 10 }, () => t.purchaseConfirm(token, body)));

    const ok = replies.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.license.id)).size).toBe(1);
    for (const r of replies.filter((r) => r.status !== 200)) expectError(r, 429, 'otp_attempts_exceeded');
    expect(chargesOf(p.purchaseId)).toBe(1);
  });

  test('a declined card is 402 card_declined; the purchase can then be paid with another card, charged once more only', async () => {
    const { t, token, plus, saveCard, chargesOf, paidCharges, licensesFor, cardOf } = await ready();
    await saveCard('declines');
    const p = await t.purchase(token, plus.id);
    const body = { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code };

    const declined = await t.purchaseConfirm(token, { ...body, cardId: cardOf(p.cards, '0341') });
    const retried = await t.purchaseConfirm(token, { ...body, cardId: cardOf(p.cards, '4242') });

    expectError(declined, 402, 'card_declined');
    expect(retried.status).toBe(200);
    expect(chargesOf(p.purchaseId)).toBe(2);
    expect(paidCharges(p.purchaseId)).toBe(1);
    expect(licensesFor(plus.id)).toHaveLength(1);
  });

  test('a card that needs its holder to authenticate is 402 authentication_required, and nothing is issued', async () => {
    const { t, token, plus, saveCard, licensesFor, cardOf } = await ready();
    await saveCard('needs_authentication');
    const p = await t.purchase(token, plus.id);

    const reply = await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: cardOf(p.cards, '3184') });

    expectError(reply, 402, 'authentication_required');
    expect(licensesFor(plus.id)).toHaveLength(0);
  });

  test('another customer’s purchase is 404 for otp and confirm', async () => {
    const { t, token, plus, saveCard } = await ready();
    await saveCard('pays_too', GRACE);
    const graceToken = await t.login(GRACE.email, GRACE.phone);
    const p = await t.purchase(token, plus.id);

    expectError(await t.purchaseOtp(graceToken, p.purchaseId), 404, 'not_found');
    const graceCard = (await t.purchaseInit(graceToken, plus.id)).body.cards[0].id;
    expectError(await t.purchaseConfirm(graceToken, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: graceCard }), 404, 'not_found');
  });

  test('another customer’s card is 404 and charges nothing', async () => {
    const { t, token, plus, saveCard, chargesOf } = await ready();
    await saveCard('pays_too', GRACE);
    const graceToken = await t.login(GRACE.email, GRACE.phone);
    const graceCard = (await t.purchaseInit(graceToken, plus.id)).body.cards[0].id;
    const p = await t.purchase(token, plus.id);

    expectError(await t.purchaseConfirm(token, { purchaseId: p.purchaseId, otpId: p.otpId, otp: p.code, cardId: graceCard }), 404, 'not_found');
    expect(chargesOf(p.purchaseId)).toBe(0);
  });

  test('an unknown or inactive product is 404 at init', async () => {
    const { t, token, plus } = await ready();
    await t.api.call('PATCH', `/developers/products/${plus.id}`, { key: t.dev.apiKey, body: { active: false } });

    expectError(await t.purchaseInit(token, 'prod_doesnotexist'), 404, 'not_found');
    expectError(await t.purchaseInit(token, plus.id), 404, 'not_found');
  });
});
