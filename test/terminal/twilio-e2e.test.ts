import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { startFakeTwilio } from '../support/fake-twilio.ts';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { BUYER, expectJourneyWorked, http, randomMasterKey, terminalJourney, type Http, type Journey } from './journey.ts';
import { payAtStripe, stripeSeller, WEBHOOK_SECRET } from './stripe-buyer.ts';

const FROM = '+15550009999';
const MASTER_KEY = randomMasterKey();

describe('the real server with Twilio (the local fake, through the official SDK) and Stripe (the local fake)', () => {
  const twilio = startFakeTwilio();
  let stripe: FakeStripe;
  const dir = mkdtempSync(join(tmpdir(), 'terminal-twilio-'));
  const dbPath = join(dir, 'licensing.db');
  let server: RunningServer;
  let call: Http;
  let journey: Journey;
  let seller: Awaited<ReturnType<typeof stripeSeller>>;

  /** The code in the newest message the fake Twilio accepted. */
  const codeFor = async () => /\b(\d{6})\b/.exec(twilio.messages.at(-1)!.body)![1]!;

  /** Starts (or restarts) the server on the same database file. */
  let smtp: SmtpSink;
  const boot = async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${dbPath}`,
      MASTER_KEY,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: FROM,
      TWILIO_API_BASE: twilio.url,
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_CONNECT_CLIENT_ID: 'ca_test',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      SMTP_URL: smtp.url,
    });
    call = http(server.url);
  };

  beforeAll(async () => {
    stripe = await startFakeStripe();
    smtp = await startSmtpSink();
    await boot();
    seller = await stripeSeller(call);
    await payAtStripe(call, server, stripe, seller);
    journey = await terminalJourney(call, seller, { texted: codeFor, mailed: async () => /\b(\d{6})\b/.exec(smtp.to(BUYER.email).at(-1)!.text)![1]! });
   }, 60_000);

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop('SIGKILL');
    twilio.stop();
    stripe?.stop();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a customer who paid at Stripe signs in by e-mailed code (SMTP), confirms the phone and buys with the codes Twilio carried', () => {
    expectJourneyWorked(journey);
    expect(twilio.messages).toHaveLength(2);
    expect(smtp.to(BUYER.email).some((m) => m.text.includes(journey.codes[0]!))).toBe(true);
  });

  test('each message goes to the customer’s phone, from TWILIO_FROM, on the configured account', () => {
    for (const message of twilio.messages) {
      expect(message).toMatchObject({ to: BUYER.phone, from: FROM, authSid: twilio.accountSid });
    }
  });

  test('the body holds the code and nothing secret besides', () => {
    const [phone, purchase] = twilio.messages;
    expect(phone!.body).toContain(journey.codes[3]!);
    expect(purchase!.body).toContain(journey.codes[2]!);
    for (const message of twilio.messages) {
      const withoutCode = message.body.replace(/\b\d{6}\b/, '<code>');
      expect(withoutCode).not.toMatch(/\d{4,}/);
      for (const secret of [twilio.authToken, MASTER_KEY, BUYER.email, journey.identityToken, journey.steps.loginInit.body.otpId, seller.apiKey]) {
        expect(message.body).not.toContain(secret);
      }
      expect(message.body).not.toMatch(/(idt|sk|pk|otp|pur|cus|lic)_/);
    }
  });

  test('GET /v1/sandbox/outbox does not exist: 404', async () => {
    const reply = await call('GET', `/sandbox/outbox?to=${encodeURIComponent(BUYER.phone)}`);
    const view = await call('GET', `/sandbox/outbox/view?to=${encodeURIComponent(BUYER.phone)}`);

    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
    expect(view.status).toBe(404);
  });

  test('when Twilio fails (500), init is 502 sms_failed and the challenge it made is never usable', async () => {
    const sent = twilio.messages.length;
    twilio.failNext(500);

    const reply = await call('POST', '/auth/login/init', { body: { email: BUYER.email } });

    expect(reply.status).toBe(502);
    expect(reply.body.error.code).toBe('sms_failed');
    expect(JSON.stringify(reply.body)).not.toContain(BUYER.phone);
    expect(twilio.messages).toHaveLength(sent);
    // The server holds its SQLite file exclusively: look at the challenge with the server stopped, then start it again.
    await server.stop('SIGTERM');
    const db = new Database(dbPath, { readonly: true });
    const newest = db.query("SELECT id, used_at AS usedAt FROM otp_challenges WHERE scope = 'login' ORDER BY created_at DESC, rowid DESC LIMIT 1").get() as { id: string; usedAt: number | null };
    db.close();
    await boot();
    expect(newest.id).not.toBe(journey.steps.loginInit.body.otpId);
    expect(newest.usedAt).not.toBeNull();
    const verify = await call('POST', '/auth/login/verify', { body: { email: BUYER.email, otpId: newest.id, otp: '000000', deviceFingerprint: BUYER.device } });
    expect(verify.status).toBe(422);
  });

  test('after a failed send, the next init sends a code that logs in', async () => {
    const init = await call('POST', '/auth/login/init', { body: { email: BUYER.email } });
    const code = await codeFor();

    const verify = await call('POST', '/auth/login/verify', { body: { email: BUYER.email, otpId: init.body.otpId, otp: code, deviceFingerprint: BUYER.device } });

    expect(init.status).toBe(200);
    expect(verify.status).toBe(200);
  });
});
