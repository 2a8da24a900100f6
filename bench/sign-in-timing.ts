/**
 * `bun run bench sign-in`: does POST /auth/login/init take as long for an unknown e-mail, a
 * customer without a confirmed phone (code e-mailed) and one with a confirmed phone (code texted)?
 * The HTTP app runs in-process over SQLite, with an SMS sender and a mailer that take a provider's
 * time (jittered) before handing the message to the sandbox. Each sample is a distinct e-mail from
 * a distinct client address, the three kinds interleaved at random, after a warm-up that lets the
 * service learn each channel's usual send time. BENCH_SIGN_IN_SAMPLES (120 per kind),
 * BENCH_SMS_MS (400), BENCH_MAIL_MS (250), BENCH_JITTER (0.25).
 */
import { randomBytes } from 'node:crypto';
import { createHttpApp } from '../src/adapters/http/server.ts';
import { KeptMailer } from '../src/adapters/sandbox/kept-mailer.ts';
import { OutboxSmsSender } from '../src/adapters/sandbox/outbox-sms-sender.ts';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from '../src/adapters/system/logger.ts';
import { systemClock } from '../src/adapters/system/system-clock.ts';
import { composeDeps } from '../src/compose.ts';
import { settingsWith } from '../src/domain/settings.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SAMPLES = num('BENCH_SIGN_IN_SAMPLES', 120);
const SMS_MS = num('BENCH_SMS_MS', 400);
const MAIL_MS = num('BENCH_MAIL_MS', 250);
const JITTER = num('BENCH_JITTER', 0.25);

const kinds = ['unknown', 'no phone (mailed)', 'confirmed phone (texted)'] as const;
type Kind = (typeof kinds)[number];

const providerWait = (ms: number) => Bun.sleep(ms * (1 - JITTER + Math.random() * 2 * JITTER));

export async function runSignInTiming(): Promise<number> {
  const store = openSqliteStore(':memory:');
  const sms = new OutboxSmsSender(store.smsOutbox, systemClock);
  const mail = new KeptMailer(store.sandboxMail, systemClock);
  const deps = composeDeps({
    store,
    clock: systemClock,
    masterKey: new Uint8Array(randomBytes(32)),
    settings: settingsWith({ trustedProxyHeader: 'x-forwarded-for', addressLimits: { ...settingsWith().addressLimits, loginInitsPerHour: 0 } }),
    sms: { expectedSendMs: SMS_MS, send: async (to, body) => { await providerWait(SMS_MS); await sms.send(to, body); } },
    mailer: { expectedSendMs: MAIL_MS, send: async (message) => { await providerWait(MAIL_MS); await mail.send(message); } },
  });
  const app = createHttpApp(deps, { log: jsonLogger('error'), ping: async () => true, publicBaseUrl: 'http://127.0.0.1', version: 'bench' });

  const warmup = 10;
  const emails = new Map<Kind, string[]>(kinds.map((k) => [k, []]));
  const now = Date.now();
  for (let i = 0; i < SAMPLES + warmup; i++) {
    emails.get('unknown')!.push(`nobody-${i}@example.com`);
    for (const [kind, phoned] of [['no phone (mailed)', false], ['confirmed phone (texted)', true]] as const) {
      const customer = await deps.customers.findOrCreate({ id: deps.ids.next('cus'), email: `${phoned ? 'phoned' : 'mailed'}-${i}@example.com`, phone: null, phoneVerifiedAt: null, createdAt: now });
      if (phoned) await deps.customers.addPhone(customer.id, `+1555${String(1_000_000 + i).slice(1)}`, now);
      emails.get(kind)!.push(customer.email);
    }
  }
  let address = 0;
  const start = async (email: string) => {
    address++;
    const began = performance.now();
    const reply = await app.handle(new Request('http://127.0.0.1/v1/auth/login/init', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` },
      body: JSON.stringify({ email }),
    }));
    const ms = performance.now() - began;
    if (reply.status !== 200) throw new Error(`login/init answered ${reply.status}: ${await reply.text()}`);
    return ms;
  };
  const order = kinds.flatMap((kind) => emails.get(kind)!.map((email, i) => ({ kind, email, warm: i < warmup })));
  order.sort(() => Math.random() - 0.5);
  order.sort((a, b) => Number(b.warm) - Number(a.warm));
  const times = new Map<Kind, number[]>(kinds.map((k) => [k, []]));
  // Several at once, as real traffic comes; sequential samples would measure an idle server.
  const lanes = 8;
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < order.length) {
      const sample = order[next++]!;
      const ms = await start(sample.email);
      if (!sample.warm) times.get(sample.kind)!.push(ms);
    }
  }));

  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  console.log(`POST /auth/login/init, ${SAMPLES} samples per kind, ${lanes} at once; provider time SMS ${SMS_MS} ms, mail ${MAIL_MS} ms (±${JITTER * 100}%)`);
  console.log('kind                         p10      median   p90      mean');
  const medians: number[] = [];
  for (const kind of kinds) {
    const sorted = times.get(kind)!.sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    medians.push(pct(sorted, 50));
    console.log(`${kind.padEnd(28)} ${[pct(sorted, 10), pct(sorted, 50), pct(sorted, 90), mean].map((v) => `${v.toFixed(0).padStart(5)} ms`).join('  ')}`);
  }
  console.log(`largest gap between medians: ${(Math.max(...medians) - Math.min(...medians)).toFixed(0)} ms`);
  await store.close();
  return 0;
}
