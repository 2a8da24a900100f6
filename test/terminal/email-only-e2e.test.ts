import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { BUYER, http, randomMasterKey, type Http } from './journey.ts';
import { payAtStripe, stripeSeller, WEBHOOK_SECRET } from './stripe-buyer.ts';

/**
 * Live mode without Twilio (issue 17): Stripe (the local fake) and SMTP (a real SMTP server the
 * test starts), no SMS provider. The service starts, and a buyer who paid at Stripe signs in and
 * buys in the terminal with codes that come by e-mail.
 */

describe('the real server with Stripe and SMTP, without Twilio', () => {
  let stripe: FakeStripe;
  let smtp: SmtpSink;
  let server: RunningServer;
  let call: Http;
  const dir = mkdtempSync(join(tmpdir(), 'email-only-'));
  const codeIn = async (count: number) => {
    const mails = await smtp.waitFor(BUYER.email, count);
    const codes = mails.map((m) => /code is (\d{6})/.exec(m.text)?.[1]).filter(Boolean);
    return codes.at(-1)!;
  };

  beforeAll(async () => {
    stripe = await startFakeStripe();
    smtp = await startSmtpSink();
    server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`,
      MASTER_KEY: randomMasterKey(),
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_CONNECT_CLIENT_ID: 'ca_test',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Acme <licenses@acme.test>',
    });
    call = http(server.url);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    stripe?.stop();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a buyer who paid at Stripe signs in and buys with a saved card, every code by e-mail', async () => {
    const seller = await stripeSeller(call);
    await payAtStripe(call, server, stripe, seller);

    const init = await call('POST', '/auth/login/init', { body: { email: BUYER.email } });
    expect(init.status).toBe(200);
    const verify = await call('POST', '/auth/login/verify', { body: { email: BUYER.email, otpId: init.body.otpId, otp: await codeIn(1), deviceFingerprint: BUYER.device } });
    expect(verify.status).toBe(200);
    const bearer = verify.body.identityToken as string;

    // No phone factor where no texts are sent: the proven e-mail holds the card, and the code is mailed.
    const phone = await call('POST', '/customer/phone', { bearer, body: { phone: BUYER.phone } });
    expect([phone.status, phone.body.error.code]).toEqual([409, 'sms_unavailable']);
    const offer = await call('POST', '/purchase/init', { bearer, body: { productId: seller.plus } });
    expect(offer.body.cards).toEqual([expect.objectContaining({ last4: '4242' })]);
    const otp = await call('POST', '/purchase/otp', { bearer, body: { purchaseId: offer.body.purchaseId } });
    expect(otp.status).toBe(200);
    expect(otp.body.phoneMasked).toBe('t•••@example.com');
    const sentBefore = smtp.to(BUYER.email).length;
    const confirm = await call('POST', '/purchase/confirm', {
      bearer,
      body: { purchaseId: offer.body.purchaseId, otpId: otp.body.otpId, otp: await codeIn(sentBefore), cardId: offer.body.cards[0].id },
    });

    expect(confirm.status).toBe(200);
    expect(confirm.body.license).toMatchObject({ productId: seller.plus, status: 'active' });
    const validate = await call('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: confirm.body.licenseKey, machineFingerprint: 'm'.repeat(64) } });
    expect(validate.body).toMatchObject({ valid: true });
  }, 60_000);

  test('nothing under /v1/sandbox exists', async () => {
    for (const path of ['/sandbox/outbox?to=%2B15551234567', `/sandbox/mail?to=${encodeURIComponent(BUYER.email)}`]) {
      expect((await call('GET', path)).status).toBe(404);
    }
  });
});
