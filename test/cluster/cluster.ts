import { afterAll, beforeAll, expect } from 'bun:test';
import { freshPostgresSchema, randomMasterKey, startCluster, type Cluster, type PostgresSchema } from '../support/server-process.ts';
import { http, type Http, type Reply } from '../terminal/journey.ts';

export { connectedSeller } from '../terminal/journey.ts';
export type { Http, Reply };

/**
 * Several real server processes on ONE fresh PostgreSQL schema with one MASTER_KEY: the service as
 * it runs behind a load balancer. Started once for the enclosing describe (or file), stopped and
 * the schema dropped after it.
 */
export interface Service {
  /** Read access to the shared schema, for assertions on what was stored. */
  db: PostgresSchema;
  /** How many instances run. */
  count: number;
  /** Talks to instance `i` only. */
  on(i: number): Http;
  /** Talks to the next instance, round-robin: a load balancer. */
  next(): Http;
  /** The running instances (URLs, output). */
  cluster(): Cluster;
  /** Where texts to a phone are read back: the sandbox outbox, or the fake Twilio in live mode. */
  inbox?: Inbox;
}

/** The texts sent to `phone` so far, in any order. */
export type Inbox = (phone: string) => Promise<{ body: string; sentAt: number }[]>;

export function useService(count: number, env: () => Record<string, string> = () => ({}), options: { inbox?: Inbox } = {}): Service {
  const db = freshPostgresSchema();
  const masterKey = randomMasterKey();
  let cluster: Cluster | undefined;
  let calls: Http[] = [];
  let turn = 0;

  beforeAll(async () => {
    cluster = await startCluster(count, { DATABASE_URL: db.databaseUrl, MASTER_KEY: masterKey, LOG_LEVEL: 'warn', ...env() });
    calls = cluster.instances.map((instance) => http(instance.url));
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop('SIGKILL');
    // LOG_LEVEL=warn: whatever an instance printed is a warning or an error worth seeing beside a failure.
    for (const [i, instance] of (cluster?.instances ?? []).entries()) {
      if (instance.output().trim()) console.error(`instance ${i} printed:\n${instance.output()}`);
    }
    await db.drop();
  });

  const running = () => {
    if (!cluster) throw new Error('the service runs only inside the tests of its describe');
    return cluster;
  };
  return {
    db,
    count,
    on: (i) => (running(), calls[i % count]!),
    next: () => (running(), calls[turn++ % count]!),
    cluster: running,
    inbox: options.inbox,
  };
}

/** Every instance's index: for spreading requests evenly. */
export const instancesOf = (service: Service) => Array.from({ length: service.count }, (_, i) => i);

/** A buyer no other test uses: its own e-mail and phone, so its codes and limits are its own. */
export function aBuyer() {
  const digits = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 10_000_000).padStart(7, '0');
  return { email: `buyer-${crypto.randomUUID()}@example.com`, phone: `+1555${digits}` };
}

export type Buyer = ReturnType<typeof aBuyer>;

/**
 * Runs `action` and returns the 6-digit code of the one message it sent to `phone`, read back from
 * the service's inbox, else the sandbox outbox through another instance than the next one (the
 * outbox is in the database).
 */
export async function newCode<T>(service: Service, phone: string, action: () => Promise<T>): Promise<{ result: T; code: string }> {
  const outbox = service.inbox ? () => service.inbox!(phone) : async () => {
    const reply = await service.next()('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
    expect(reply.status).toBe(200);
    return reply.body.data as { body: string; sentAt: number }[];
  };
  const before = new Set((await outbox()).map((m) => `${m.sentAt} ${m.body}`));
  const result = await action();
  const fresh = (await outbox()).filter((m) => !before.has(`${m.sentAt} ${m.body}`));
  expect(fresh).toHaveLength(1);
  const code = /\b(\d{6})\b/.exec(fresh[0]!.body)?.[1];
  if (!code) throw new Error(`no code in "${fresh[0]!.body}"`);
  return { result, code };
}

/** The code in the newest mail to `email`: from `mailbox` (a live SMTP sink), else the sandbox mail. */
export async function mailedCode(service: Service, email: string, mailbox?: (email: string) => { text: string }[]): Promise<string> {
  // The newest mail carrying a code (receipts are mailed too).
  const mails: { text: string }[] = mailbox ? [...mailbox(email)].reverse() : (await service.next()('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`)).body.data;
  const code = mails.map((m) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/**
 * The buyer signs in by e-mailed code and confirms the checkout's phone (a code texted to it), as
 * the account page does: from then on sign-in and purchase codes are texted, and the card offered.
 */
export async function confirmBuyerPhone(service: Service, buyer: Buyer, mailbox?: (email: string) => { text: string }[]): Promise<void> {
  const init = await service.next()('POST', '/auth/login/init', { body: { email: buyer.email } });
  expect(init.status).toBe(200);
  const otp = await mailedCode(service, buyer.email, mailbox);
  const verified = await service.next()('POST', '/auth/login/verify', { body: { email: buyer.email, otpId: init.body.otpId, otp, deviceFingerprint: 'cluster-setup' } });
  expect(verified.status).toBe(200);
  const bearer = verified.body.identityToken as string;
  const { result: asked, code } = await newCode(service, buyer.phone, () => service.next()('POST', '/customer/phone', { bearer, body: { phone: buyer.phone } }));
  const done = await service.next()('POST', '/customer/phone/verify', { bearer, body: { phone: buyer.phone, otpId: asked.body.otpId, otp: code } });
  expect(done.status).toBe(200);
}

/**
 * A purchase of `productId` by a logged-in buyer (token), begun on one instance and its code sent
 * from the other: the confirm body, with the 4242 card a checkout saved.
 */
export async function purchaseReadyToConfirm(service: Service, token: string, productId: string, phone: string) {
  const init = await service.on(0)('POST', '/purchase/init', { bearer: token, body: { productId } });
  expect(init.body.cards).toEqual([expect.objectContaining({ last4: '4242' })]);
  const { purchaseId } = init.body;
  const { result: otp, code } = await newCode(service, phone, () => service.on(1)('POST', '/purchase/otp', { bearer: token, body: { purchaseId } }));
  return { purchaseId: purchaseId as string, otpId: otp.body.otpId as string, otp: code, cardId: init.body.cards[0].id as string };
}

/** The same confirm, twice on each of two instances at once: all must answer 200 with one license. */
export async function confirmOnBothInstances(service: Service, token: string, body: Awaited<ReturnType<typeof purchaseReadyToConfirm>>) {
  // Four: within the code's 5 attempts, since every attempt counts (a sixth may hear otp_attempts_exceeded).
  const replies = await Promise.all(Array.from({ length: 4 }, (_, n) => service.on(n % 2)('POST', '/purchase/confirm', { bearer: token, body })));
  expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  expect(new Set(replies.map((r) => r.body.license.id)).size).toBe(1);
  return replies[0]!.body.license.id as string;
}

/** The buyer pays a sandbox checkout of `productId` with card 4242, which is saved. Returns the session id. */
export async function payInSandbox(call: Http, seller: { apiKey: string }, productId: string, buyer: Buyer) {
  const init = await call('POST', '/checkout/init', { key: seller.apiKey, body: { productId } });
  expect(init.status).toBe(201);
  const pay = await call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, {
    form: { email: buyer.email, phone: buyer.phone, cardNumber: '4242424242424242' },
  });
  expect(pay.status).toBe(303);
  return init.body.sessionId as string;
}

/** The ids of the licenses the shared database holds for this buyer. */
export async function licensesOf(service: Service, email: string): Promise<string[]> {
  const rows = await service.db.query<{ id: string }>(
    'SELECT l.id FROM licenses l JOIN customers c ON c.id = l.customer_id WHERE c.email = $1',
    [email],
  );
  return rows.map((r) => r.id);
}

/** CONTRACT.md's error shape with this status and code. */
export function expectError(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  expect(typeof reply.body.error.message).toBe('string');
}

/** How many of the replies match. */
export const countOf = <T>(items: T[], match: (item: T) => boolean) => items.filter(match).length;
