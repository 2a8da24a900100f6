import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeStripe, type FakeStripe } from '../../support/fake-stripe.ts';
import { startFakeTwilio } from '../../support/fake-twilio.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { randomMasterKey, spawnService, startServer, type RunningServer } from '../../support/server-process.ts';
import { lines, tempDir } from '../../e2e/support.ts';

/**
 * Live means live end to end: a live payment processor never runs beside the sandbox SMS outbox
 * (which would publish real customers' codes), live SMS never beside the sandbox processor, and
 * nothing under /v1/sandbox exists once a live provider is configured.
 */

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_CONNECT_CLIENT_ID: 'ca_test', STRIPE_WEBHOOK_SECRET: 'whsec_test' };
const SMTP = { SMTP_URL: 'smtp://user:pass@127.0.0.1:2525', MAIL_FROM: 'Acme <licenses@acme.test>' };
const TWILIO = { TWILIO_ACCOUNT_SID: `AC${'0f'.repeat(16)}`, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+15550009999' };

/** Starts the service with `env` in an empty folder and waits for it to exit on its own. */
async function startUpFailure(env: Record<string, string>) {
  const dir = tempDir();
  try {
    const service = await spawnService({ DATABASE_URL: `sqlite:${join(dir.path, 'x.db')}`, MASTER_KEY: randomMasterKey(), ...env }, { cwd: dir.path, inheritEnv: false });
    const guard = setTimeout(() => service.kill('SIGKILL'), 20_000);
    const code = await service.exited;
    clearTimeout(guard);
    return { code, printed: lines(service.output()), leftBehind: readdirSync(dir.path) };
  } finally {
    dir.remove();
  }
}

describe('start-up refuses a half-live configuration with one line naming the variables', () => {
  test('Stripe without SMTP: refused, naming STRIPE_SECRET_KEY and SMTP_URL (receipts carry the keys)', async () => {
    const { code, printed, leftBehind } = await startUpFailure({ ...STRIPE, ...TWILIO });

    expect(code).not.toBe(0);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('STRIPE_SECRET_KEY');
    expect(printed[0]).toContain('SMTP_URL');
    expect(leftBehind).toEqual([]);
  });

  test('SMTP without Stripe: refused, naming SMTP_URL and STRIPE_SECRET_KEY', async () => {
    const { code, printed, leftBehind } = await startUpFailure(SMTP);

    expect(code).not.toBe(0);
    expect(printed).toEqual([expect.stringContaining('SMTP_URL')]);
    expect(printed[0]).toContain('STRIPE_SECRET_KEY');
    expect(leftBehind).toEqual([]);
  });

  test.each([
    ['ftp://mail.example.com', 'SMTP_URL must start with smtp://'],
    ['not a url', 'SMTP_URL is not a valid URL'],
  ])('SMTP_URL %p: refused with %p', async (url, message) => {
    const { code, printed } = await startUpFailure({ ...STRIPE, ...TWILIO, SMTP_URL: url });

    expect(code).not.toBe(0);
    expect(printed).toEqual([expect.stringContaining(message)]);
  });

  test('a MAIL_FROM that is no address, or carries a line break: refused', async () => {
    for (const from of ['Acme', 'Acme <a@b.co>\r\nBcc: x@y.z']) {
      const { code, printed } = await startUpFailure({ ...STRIPE, ...TWILIO, ...SMTP, MAIL_FROM: from });
      expect(code).not.toBe(0);
      expect(printed).toEqual([expect.stringContaining('MAIL_FROM')]);
    }
  });

  test('Twilio without Stripe: refused, naming the TWILIO_ variables and STRIPE_SECRET_KEY', async () => {
    const { code, printed, leftBehind } = await startUpFailure(TWILIO);

    expect(code).not.toBe(0);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('TWILIO_ACCOUNT_SID');
    expect(printed[0]).toContain('STRIPE_SECRET_KEY');
    expect(leftBehind).toEqual([]);
  });

  test('a Twilio auth token alone counts as Twilio: refused the same way', async () => {
    const { code, printed } = await startUpFailure({ TWILIO_AUTH_TOKEN: 'token' });

    expect(code).not.toBe(0);
    expect(printed).toEqual([expect.stringContaining('STRIPE_SECRET_KEY')]);
  });
});

const SANDBOX_PATHS: [string, string][] = [
  ['GET', '/v1/sandbox/outbox?to=%2B15551234567'],
  ['GET', '/v1/sandbox/outbox/view?to=%2B15551234567'],
  ['GET', '/v1/sandbox/checkout/cs_anything'],
  ['POST', '/v1/sandbox/checkout/cs_anything/pay'],
  ['POST', '/v1/sandbox/checkout/cs_anything/cancel'],
  ['GET', '/v1/sandbox/connect/authorize?state=x&redirect_uri=x'],
  ['GET', '/v1/sandbox'],
  ['GET', '/v1/sandbox/mail?to=ada%40example.com'],
  ['GET', '/v1/sandbox/mail/view?to=ada%40example.com'],
];

describe('with Stripe, Twilio and SMTP configured (the local fakes)', () => {
  const twilio = startFakeTwilio();
  let stripe: FakeStripe;
  let smtp: SmtpSink;
  let server: RunningServer;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    smtp = await startSmtpSink();
    server = await startServer({
      DATABASE_URL: 'sqlite::memory:',
      MASTER_KEY: randomMasterKey(),
      ...STRIPE,
      STRIPE_API_BASE: stripe.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15550009999',
      TWILIO_API_BASE: twilio.url,
      SMTP_URL: smtp.url,
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    stripe?.stop();
    twilio.stop();
  });

  test.each(SANDBOX_PATHS)('%s %s is a JSON 404', async (method, path) => {
    const body = method === 'POST' ? 'email=a%40b.co&phone=%2B15551234567&cardNumber=4242424242424242' : undefined;
    const response = await fetch(`${server.url}${path}`, { method, body, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, redirect: 'manual' });

    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  test('the OpenAPI document lists no sandbox route', async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };

    expect(Object.keys(doc.paths).filter((p) => p.includes('/sandbox'))).toEqual([]);
  });
});
