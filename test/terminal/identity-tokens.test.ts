import { describe, expect, test } from 'bun:test';
import { DEVICE, expectError, openTerminal, type Terminal } from './terminal.ts';

const DAY = 86_400_000;
const GRACE = { email: 'grace@example.com', phone: '+15557654321' };

/** A customer who bought once and logged in: their token and their license's id. */
async function loggedIn(t: Terminal) {
  await t.payInBrowser();
  const { otpId, code } = await t.challenge();
  const verified = await t.loginVerify({ otpId, otp: code });
  return { token: verified.body.identityToken as string, licenseId: verified.body.licenses[0].id as string };
}

const getLicense = (t: Terminal, id: string, headers: Record<string, string>) => t.api.call('GET', `/licenses/${id}`, { headers });

describe('GET /licenses/:id with identity tokens', () => {
  test('the owning customer’s token: 200 with the license', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);

    const reply = await getLicense(t, licenseId, t.bearer(token));

    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: licenseId, productId: t.dev.product.id, status: 'active' });
  });

  test('another customer’s token: 404 not_found', async () => {
    const t = await openTerminal();
    const { licenseId } = await loggedIn(t);
    await t.payInBrowser(GRACE);
    const graceToken = await t.login(GRACE.email, GRACE.phone);

    expectError(await getLicense(t, licenseId, t.bearer(graceToken)), 404, 'not_found');
  });

  test('the developer’s secret key still works; the publishable key is 403 forbidden', async () => {
    const t = await openTerminal();
    const { licenseId } = await loggedIn(t);

    expect((await getLicense(t, licenseId, { 'x-api-key': t.dev.apiKey })).status).toBe(200);
    expectError(await getLicense(t, licenseId, { 'x-api-key': t.dev.publishableKey }), 403, 'forbidden');
  });

  test('junk, foreign and malformed bearer tokens: 401 unauthorized', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);
    const junk = [
      `Bearer idt_${'x'.repeat(43)}`, 'Bearer idt_', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Bearer ${'idt_'.repeat(100)}`,
      `Bearer ${t.dev.apiKey}`, `Bearer ${t.dev.publishableKey}`, `Basic ${btoa(`x:${token}`)}`, token, 'Bearer', '',
    ];

    for (const authorization of junk) {
      const reply = await getLicense(t, licenseId, { authorization });
      expect({ authorization: authorization.slice(0, 20), status: reply.status }).toEqual({ authorization: authorization.slice(0, 20), status: 401 });
      expectError(reply, 401, 'unauthorized');
    }
  });
});

describe('POST /auth/logout', () => {
  test('answers {loggedOut: true}; the token is then 401 everywhere', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);

    const logout = await t.api.call('POST', '/auth/logout', { headers: t.bearer(token) });

    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ loggedOut: true });
    expectError(await getLicense(t, licenseId, t.bearer(token)), 401, 'unauthorized');
    expectError(await t.purchaseInit(token), 401, 'unauthorized');
    expectError(await t.purchaseOtp(token, 'pur_any'), 401, 'unauthorized');
    expectError(await t.purchaseConfirm(token, { purchaseId: 'pur_any', otpId: 'otp_any', otp: '123456', cardId: 'card_any' }), 401, 'unauthorized');
    expectError(await t.api.call('POST', '/auth/logout', { headers: t.bearer(token) }), 401, 'unauthorized');
  });

  test('logs out that token only: the same customer’s token on another device keeps working', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);
    const other = await t.login(undefined, undefined, 'laptop-2');

    await t.api.call('POST', '/auth/logout', { headers: t.bearer(token) });

    expect((await getLicense(t, licenseId, t.bearer(other))).status).toBe(200);
  });
});

describe('an identity token lasts 30 days', () => {
  test('a millisecond before 30 days it works; at 30 days it is 401', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);

    t.clock.advance(30 * DAY - 1);
    const before = await getLicense(t, licenseId, t.bearer(token));
    t.clock.advance(1);
    const after = await getLicense(t, licenseId, t.bearer(token));

    expect(before.status).toBe(200);
    expectError(after, 401, 'unauthorized');
    expectError(await t.purchaseInit(token), 401, 'unauthorized');
  });
});

describe('an identity token is bound to the device it was issued to', () => {
  test('X-Device-Fingerprint of the login’s device: 200', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);

    expect((await getLicense(t, licenseId, t.bearer(token, { 'x-device-fingerprint': DEVICE }))).status).toBe(200);
  });

  test('no X-Device-Fingerprint (or an empty one): 401 unauthorized, on every customer route; the token stays usable on its device', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);
    const product = await t.anotherProduct('Pro Plus', 2999);

    const variants: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { authorization: `Bearer ${token}`, 'x-device-fingerprint': '' }];
    for (const alone of variants) {
      const refused = await Promise.all([
        getLicense(t, licenseId, alone),
        t.api.call('GET', '/customer/licenses', { headers: alone }),
        t.api.call('DELETE', `/customer/licenses/${licenseId}/activations/act_any`, { headers: alone }),
        t.api.call('POST', '/customer/phone', { headers: alone, body: { phone: '+15550001111' } }),
        t.api.call('POST', '/purchase/init', { headers: alone, body: { productId: product.id } }),
        t.api.call('POST', '/purchase/otp', { headers: alone, body: { purchaseId: 'pur_any' } }),
        t.api.call('POST', '/purchase/confirm', { headers: alone, body: { purchaseId: 'pur_any', otpId: 'otp_any', otp: '123456', cardId: 'card_any' } }),
        t.api.call('POST', '/auth/logout', { headers: alone }),
      ]);
      for (const reply of refused) expectError(reply, 401, 'unauthorized');
      expect(refused[0]!.body.error.message).toContain('X-Device-Fingerprint');
    }
    // Nothing was sent to the new phone, and the logout did not take.
    expect(await t.outbox('+15550001111')).toEqual([]);
    expect((await getLicense(t, licenseId, t.bearer(token, { 'x-device-fingerprint': DEVICE }))).status).toBe(200);
  });

  test('another X-Device-Fingerprint: 401 unauthorized, on every customer route', async () => {
    const t = await openTerminal();
    const { token, licenseId } = await loggedIn(t);
    const elsewhere = t.bearer(token, { 'x-device-fingerprint': 'someone-elses-machine' });

    expectError(await getLicense(t, licenseId, elsewhere), 401, 'unauthorized');
    expectError(await t.api.call('POST', '/purchase/init', { headers: elsewhere, body: { productId: t.dev.product.id } }), 401, 'unauthorized');
    expectError(await t.api.call('POST', '/auth/logout', { headers: elsewhere }), 401, 'unauthorized');
    expect((await getLicense(t, licenseId, t.bearer(token))).status).toBe(200);
  });
});
