import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.ts';
import { startFakeTwilio } from '../support/fake-twilio.ts';
import { freshPostgresSchema, randomMasterKey, startServer, type PostgresSchema, type RunningServer } from '../support/server-process.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

/**
 * A crash between the commit and the send: the real service, live (fake Stripe, SMTP), commits a
 * license and its receipt, claims the mail and hangs in the SMTP conversation (a relay that never
 * answers the message); it is killed with SIGKILL. Restarted on the same database, it sends the
 * receipt once the claim's lease (MAIL_LEASE_SECONDS) has passed: it arrives exactly once.
 */

/** An SMTP server that takes the message and never answers it: the sender hangs there. */
async function startStallingRelay() {
  let messages = 0;
  const ids: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream) {
      messages++;
      let head = '';
      // Read it all, answer never; keep the Message-ID the sender gave it.
      stream.on('data', (chunk: Buffer) => {
        head += chunk.toString('utf8');
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1];
        if (id && !ids.includes(id)) ids.push(id);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://stall:secret@127.0.0.1:${port}`, messages: () => messages, ids, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let stripe: FakeStripe;
const twilio = startFakeTwilio();
let sink: SmtpSink;
beforeAll(async () => {
  stripe = await startFakeStripe();
  sink = await startSmtpSink();
});
afterAll(async () => {
  stripe?.stop();
  twilio.stop();
  await sink?.close();
});

async function call(server: RunningServer, method: string, path: string, key?: string, body?: unknown) {
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { ...(key && { 'x-api-key': key }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function until(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const STORES: { name: string; database: () => { url: string; drop: () => Promise<void> } }[] = [
  {
    name: 'sqlite',
    database: () => {
      const dir = mkdtempSync(join(tmpdir(), 'licensing-mail-crash-'));
      return { url: `sqlite:${join(dir, 'licensing.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    database: () => {
      const schema: PostgresSchema = freshPostgresSchema();
      return { url: schema.databaseUrl, drop: () => schema.drop() };
    },
  },
];

for (const { name, database } of STORES) {
  describe(`a crash between commit and send on ${name}`, () => {
    test('the receipt committed with the license arrives exactly once after a restart, with its Message-ID', async () => {
      const db = database();
      const buyer = `crash.${name}@example.com`;
      const relay = await startStallingRelay();
      const env = {
        DATABASE_URL: db.url,
        MASTER_KEY: randomMasterKey(),
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_CONNECT_CLIENT_ID: 'ca_test',
        STRIPE_WEBHOOK_SECRET: 'whsec_test',
        STRIPE_API_BASE: stripe.url,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: '+15550009999',
        TWILIO_API_BASE: twilio.url,
        MAIL_LEASE_SECONDS: '1',
        LOG_LEVEL: 'warn',
      };
      let first: RunningServer | undefined;
      let second: RunningServer | undefined;
      try {
        first = await startServer({ ...env, SMTP_URL: relay.url });
        const signup = await call(first, 'POST', '/developers/signup', undefined, { email: 'seller@example.com', name: 'Crash Tools' });
        const product = await call(first, 'POST', '/developers/products', signup.body.apiKey, { name: 'Crash Pro', price: 500, currency: 'usd', features: [] });
        const granted = await call(first, 'POST', '/developers/licenses', signup.body.apiKey, { productId: product.body.id, email: buyer });
        expect(granted.status).toBe(201);
        // The sender claimed the receipt and is inside its SMTP conversation: kill it there.
        await until(() => relay.ids.length > 0, 15_000, 'the receipt to reach the stalling relay');
        await first.stop('SIGKILL');

        second = await startServer({ ...env, SMTP_URL: sink.url });
        const [mail] = await sink.waitFor(buyer, 1, 20_000);
        await Bun.sleep(1_500); // more than a lease: no second copy comes

        expect(sink.to(buyer)).toHaveLength(1);
        expect(mail!.subject).toBe('Your Crash Pro license from Crash Tools');
        expect(mail!.text).toContain(granted.body.licenseKey);
        // The copy the relay may have kept carries the same Message-ID: a duplicate would be recognisable.
        expect(mail!.messageId).toMatch(/^<mail_[A-Za-z0-9]+@[^>]+>$/);
        expect(relay.ids).toEqual([mail!.messageId]);
        expect((await call(second, 'GET', `/licenses/${granted.body.license.id}`, signup.body.apiKey)).body.licenseKey).toBe(granted.body.licenseKey);
      } finally {
        if (first && first.proc.exitCode === null) await first.stop('SIGKILL');
        await second?.stop();
        await relay.close();
        await db.drop();
      }
    }, 60_000);
  });
}
