import { confirmPhone, customerAuth } from '../support/sign-in.ts';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { SANDBOX_CODE_PREFIX } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { SELLER_RESENDS_PER_DAY } from '../../src/app/licenses/resend-receipt.ts';
import { sendDueMail } from '../../src/app/mail/send-mail.ts';
import { composeDeps } from '../../src/compose.ts';
import type { Deps } from '../../src/ports/deps.ts';
import { PostgresRateLimiter } from '../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../contracts/stores.ts';
import { openTerminal } from '../terminal/terminal.ts';
import { FixedClock } from '../support/clock.ts';
import { TEST_ISSUER, testSettings } from '../support/deps.ts';
import { testApi, type Reply, type TestApi } from '../support/http.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';

/**
 * Receipts end to end, on a real SQLite file and on PostgreSQL: the HTTP app writes the license and
 * its receipt, the outbox sender sends it over SMTP to a real SMTP server, and the mail is read back
 * with a MIME parser, as the buyer's mail client would.
 */

let sink: SmtpSink;
let mailer: SmtpMailer;
beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = new SmtpMailer({ url: sink.url, from: 'Licensing <licenses@licensing.test>', messageIdHost: 'licensing.test' });
});
afterAll(async () => {
  mailer.close();
  await sink.close();
});

const STORES: { name: string; open: () => Promise<TestStore> }[] = [
  { name: 'sqlite', open: openSqliteTestStore },
  { name: 'postgres', open: () => openPostgresTestStore() },
];

let opened: TestStore | undefined;
afterEach(async () => {
  await opened?.dispose();
  opened = undefined;
});

const SELLER = 'Acme Tools';
const PRODUCT = 'Acme Pro';

async function openShop(open: () => Promise<TestStore>) {
  opened = await open();
  const deps = composeDeps({ store: opened.store, clock: new FixedClock(), masterKey: new Uint8Array(randomBytes(32)), settings: testSettings(), mailer });
  const api = testApi({ deps: deps as Deps & { clock: FixedClock } });
  const seller = await signUp(api, SELLER);
  return { api, seller, ...flows(api, seller) };
}

async function signUp(api: TestApi, name: string) {
  const signup = await api.call('POST', '/developers/signup', { body: { email: `dev-${crypto.randomUUID()}@example.com`, name } });
  const { id, apiKey, publishableKey } = signup.body as { id: string; apiKey: string; publishableKey: string };
  const product = await api.call('POST', '/developers/products', { key: apiKey, body: { name: PRODUCT, price: 1999, currency: 'usd', features: ['pro'], trialDays: 14 } });
  const start = await api.call('POST', '/connect/start', { key: apiKey });
  const state = new URL(start.body.url).searchParams.get('state')!;
  await api.call('GET', `/connect/callback?${new URLSearchParams({ code: `${SANDBOX_CODE_PREFIX}abcdefgh12345678`, state })}`);
  return { id, apiKey, publishableKey, productId: product.body.id as string };
}

function flows(api: TestApi, seller: Awaited<ReturnType<typeof signUp>>) {
  const grant = (email: string, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email, ...extra } });
  /** The sandbox checkout paid through its Pay form; the license as the status answers it. */
  const payCheckout = async (email: string, productId = seller.productId, phone = '+15550100000') => {
    const init = await api.call('POST', '/checkout/init', { key: seller.apiKey, body: { productId } });
    const form = new URLSearchParams({ email, phone, cardNumber: '4242 4242 4242 4242' });
    const pay = await api.call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(pay.status).toBe(303);
    return (await api.call('GET', `/checkout/status/${init.body.sessionId}`)).body as { license: { id: string }; licenseKey: string };
  };
  const startTrial = (email: string) =>
    api.call('POST', '/trials', { key: seller.apiKey, body: { productId: seller.productId, email, machineFingerprint: `fp-${crypto.randomUUID()}`, name: 'laptop' } });
  const resend = (licenseId: string, key = seller.apiKey) => api.call('POST', `/licenses/${licenseId}/resend`, { key });
  /** Runs the outbox sender until it has nothing left (what the service's 1-second rounds do). */
  const deliver = async () => {
    while ((await sendDueMail(api.deps)).full);
  };
  /** The newest code sent, by SMS (the sandbox outbox) or by e-mail (through the SMTP server). */
  const latestCode = async (phone: string, email: string) => {
    await deliver();
    const texts = (await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`)).body.data as { body: string; sentAt: number }[] | undefined;
    const bySms = texts?.[0] && /\b(\d{6})\b/.exec(texts[0].body)?.[1];
    const mailed = sink.to(email).filter((m) => /code/i.test(m.subject)).at(-1);
    const code = bySms ?? (mailed && /\b(\d{6})\b/.exec(mailed.subject)?.[1]);
    if (!code) throw new Error(`no code for ${phone} or ${email}`);
    return code;
  };
  return { grant, payCheckout, startTrial, resend, deliver, latestCode };
}

/** Mails queued in one millisecond go out in no promised order: pick one by what it says. */
const saying = (mails: ReceivedMail[], words: string) => {
  const found = mails.filter((m) => m.text.includes(words));
  expect(found).toHaveLength(1);
  return found[0]!;
};

const buyer = () => `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** The receipt's promises, in both parts: the key, the activation command with a working publishable key, the account link. */
function expectReceipt(mail: ReceivedMail, licenseKey: string, seller: { apiKey: string }) {
  expect(mail.subject).toBe(`Your ${PRODUCT} license from ${SELLER}`);
  expect(mail.messageId).toMatch(/^<mail_[A-Za-z0-9]+@licensing\.test>$/);
  for (const part of [mail.text, mail.html]) {
    expect(part).toContain(licenseKey);
    expect(part).toContain('licensing activate --publishable-key pk_');
    expect(part).not.toContain(`licensing activate ${licenseKey}`);
    expect(part).toContain(`--api-url ${TEST_ISSUER}/v1`);
    expect(part).toContain(`${TEST_ISSUER}/v1/account`);
    expect(part).toContain(SELLER);
    expect(part).toContain(PRODUCT);
    // No secret but the license key: no secret API key, no other key than the receipts' pk.
    expect(part).not.toContain(seller.apiKey);
    expect(part).not.toContain('sk_');
  }
  // Simple and private: no images, no remote assets, no tracking.
  expect(mail.html).not.toMatch(/<img|<script|src=|url\(/i);
  return /--publishable-key (pk_[A-Za-z0-9]+)/.exec(mail.text)![1]!;
}

for (const { name, open } of STORES) {
  describe(`receipts on ${name}`, () => {
    test('a grant e-mails the key; the command’s publishable key activates it; notify: false e-mails nothing', async () => {
      const shop = await openShop(open);
      const [ada, silent] = [buyer(), buyer()];

      const granted = await shop.grant(ada);
      const quiet = await shop.grant(silent, { notify: false });
      await shop.deliver();

      expect(granted.status).toBe(201);
      expect(quiet.status).toBe(201);
      const [mail] = await sink.waitFor(ada);
      const pk = expectReceipt(mail!, granted.body.licenseKey, shop.seller);
      expect(mail!.text).toContain(`Granted by ${SELLER}`);
      const activated = await shop.api.call('POST', '/licenses/activate', { key: pk, body: { licenseKey: granted.body.licenseKey, machineFingerprint: 'fp-ada', name: 'ada-laptop' } });
      expect(activated.status).toBeLessThan(300);
      expect(sink.to(silent)).toEqual([]);
    });

    test('a checkout paid e-mails the receipt with the amount; a second grant uses the same publishable key', async () => {
      const shop = await openShop(open);
      const ada = buyer();

      const paid = await shop.payCheckout(ada);
      await shop.grant(ada);
      await shop.deliver();

      const mails = await sink.waitFor(ada, 2);
      const [receipt, second] = [saying(mails, 'Paid:'), saying(mails, 'Granted by')];
      const pk = expectReceipt(receipt!, paid.licenseKey, shop.seller);
      expect(receipt!.text).toContain('Paid: $19.99');
      expect(/--publishable-key (pk_[A-Za-z0-9]+)/.exec(second!.text)![1]).toBe(pk);
    });

    test('a trial e-mails its receipt with its end; buying the product converts it and e-mails the paid key', async () => {
      const shop = await openShop(open);
      const ada = buyer();

      const trial = await shop.startTrial(ada);
      expect(trial.status).toBe(201);
      const paid = await shop.payCheckout(ada);
      await shop.deliver();

      expect(paid.license.id).toBe(trial.body.license.id);
      const mails = await sink.waitFor(ada, 2);
      const [trialMail, paidMail] = [saying(mails, 'Free trial'), saying(mails, 'Paid:')];
      expectReceipt(trialMail!, trial.body.licenseKey, shop.seller);
      const until = new Date(trial.body.license.expiresAt).toISOString().slice(0, 10);
      expect(trialMail!.text).toContain(`Free trial until ${until}`);
      expectReceipt(paidMail!, paid.licenseKey, shop.seller);
      expect(paidMail!.text).toContain('Paid: $19.99');
      expect(paid.licenseKey).not.toBe(trial.body.licenseKey);
    });

    test('a terminal purchase e-mails its receipt with the purchase’s amount', async () => {
      const shop = await openShop(open);
      const ada = buyer();
      const phone = `+1555${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
      await shop.payCheckout(ada, shop.seller.productId, phone);
      const plus = await shop.api.call('POST', '/developers/products', { key: shop.seller.apiKey, body: { name: PRODUCT, price: 2999, currency: 'usd', features: ['plus'] } });
      const bearer = (token: string) => customerAuth(token, 'fp-terminal');

      const login = await shop.api.call('POST', '/auth/login/init', { body: { email: ada } });
      const verified = await shop.api.call('POST', '/auth/login/verify', { body: { email: ada, otpId: login.body.otpId, otp: await shop.latestCode(phone, ada), deviceFingerprint: 'fp-terminal' } });
      const token = verified.body.identityToken as string;
      await confirmPhone(shop.api.call, token, phone, 'fp-terminal'); // the checkout's card is offered through its phone
      const init = await shop.api.call('POST', '/purchase/init', { headers: bearer(token), body: { productId: plus.body.id } });
      const otp = await shop.api.call('POST', '/purchase/otp', { headers: bearer(token), body: { purchaseId: init.body.purchaseId } });
      const confirmed = await shop.api.call('POST', '/purchase/confirm', {
        headers: bearer(token),
        body: { purchaseId: init.body.purchaseId, otpId: otp.body.otpId, otp: await shop.latestCode(phone, ada), cardId: init.body.cards[0].id },
      });
      await shop.deliver();

      expect(confirmed.status).toBe(200);
      const receipt = saying(sink.to(ada), 'Paid: $29.99');
      expectReceipt(receipt, confirmed.body.licenseKey, shop.seller);
    });

    test('a subscription renewal e-mails the renewed key with the amount of the invoice, once', async () => {
      const shop = await openShop(open);
      const ada = buyer();
      const monthly = await shop.api.call('POST', '/developers/products', { key: shop.seller.apiKey, body: { name: PRODUCT, price: 900, currency: 'usd', features: ['pro'], interval: 'month' } });
      await shop.payCheckout(ada, monthly.body.id);

      const billed = await shop.api.call('POST', '/sandbox/clock', { key: shop.seller.apiKey, body: { advanceDays: 32 } });
      await shop.api.call('POST', '/sandbox/clock', { key: shop.seller.apiKey, body: { advanceDays: 0 } });
      await shop.deliver();

      expect(billed.body.billed).toMatchObject([{ outcome: 'renewed' }]);
      const mails = await sink.waitFor(ada, 2);
      expect(mails).toHaveLength(2);
      const renewed = (await shop.api.deps.licenses.listByCustomer((await shop.api.deps.customers.findByEmail(ada))!.id))[0]!;
      const renewal = saying(mails, 'is renewed');
      expectReceipt(renewal, renewed.licenseKey, shop.seller);
      expect(renewal.text).toContain('Paid: $9.00');
      expect(saying(mails, 'Thank you for buying').text).toContain('Paid: $9.00');
    });

    test('resend: 202 and the key arrives again, 5 a day; the 6th is 429 rate_limited with Retry-After', async () => {
      const shop = await openShop(open);
      const ada = buyer();
      const granted = await shop.grant(ada, { notify: false });

      const replies: Reply[] = [];
      for (let i = 0; i < 6; i++) replies.push(await shop.resend(granted.body.license.id));
      await shop.deliver();

      expect(replies.slice(0, 5).map((r) => [r.status, r.body])).toEqual(Array(5).fill([202, { queued: true }]));
      expect(replies[5]!.status).toBe(429);
      expect(replies[5]!.body.error.code).toBe('rate_limited');
      expect(Number(replies[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
      const mails = await sink.waitFor(ada, 5);
      expectReceipt(mails[0]!, granted.body.licenseKey, shop.seller);
      expect(mails[0]!.text).toContain('sent you your');
      expect(new Set(mails.map((m) => m.messageId)).size).toBe(5);
    });

    test('a seller resends at most 1,000 keys a day over all their licenses', async () => {
      const shop = await openShop(open);
      const first = await shop.grant(buyer(), { notify: false });
      const second = await shop.grant(buyer(), { notify: false });
      const developerId = (await shop.api.deps.licenses.findById(first.body.license.id))!.developerId;
      // 998 resends already counted today (the shared counter the route uses).
      for (let i = 0; i < SELLER_RESENDS_PER_DAY - 2; i++) await shop.api.deps.rateLimiter.hit(`resend:seller:${developerId}`, SELLER_RESENDS_PER_DAY, 86_400_000);

      const replies = [await shop.resend(first.body.license.id), await shop.resend(second.body.license.id), await shop.resend(second.body.license.id)];

      expect(replies.map((r) => r.status)).toEqual([202, 202, 429]);
      expect(replies[2]!.body.error.message).toContain('1000 times today');
    });

    test('10 concurrent resends of one license: exactly 5 are queued, 5 refused', async () => {
      const shop = await openShop(open);
      const ada = buyer();
      const granted = await shop.grant(ada, { notify: false });

      const replies = await Promise.all(Array.from({ length: 10 }, () => shop.resend(granted.body.license.id)));
      await shop.deliver();

      expect(replies.map((r) => r.status).sort()).toEqual([...Array(5).fill(202), ...Array(5).fill(429)]);
      await sink.waitFor(ada, 5);
      await Bun.sleep(200);
      expect(sink.to(ada)).toHaveLength(5);
    });

    test('resend: another seller’s or an unknown license is 404, a publishable key 403; a revoked one is resent and says so', async () => {
      const shop = await openShop(open);
      const other = await signUp(shop.api, 'Rival');
      const ada = buyer();
      const granted = await shop.grant(ada, { notify: false });

      expect((await shop.resend(granted.body.license.id, other.apiKey)).body.error.code).toBe('not_found');
      expect((await shop.resend('lic_unknown')).status).toBe(404);
      expect((await shop.resend(granted.body.license.id, shop.seller.publishableKey)).status).toBe(403);
      await shop.api.call('POST', `/licenses/${granted.body.license.id}/revoke`, { key: shop.seller.apiKey });
      expect((await shop.resend(granted.body.license.id)).status).toBe(202);
      await shop.deliver();

      const [mail] = await sink.waitFor(ada, 1);
      expect(mail!.text).toContain('revoked');
      expect(sink.to(ada)).toHaveLength(1);
    });

    test('GET /licenses/:id: the owner’s secret key sees licenseKey; a publishable key is 403, another seller 404', async () => {
      const shop = await openShop(open);
      const other = await signUp(shop.api, 'Rival');
      const granted = await shop.grant(buyer(), { notify: false });
      const path = `/licenses/${granted.body.license.id}`;

      const owner = await shop.api.call('GET', path, { key: shop.seller.apiKey });
      const publishable = await shop.api.call('GET', path, { key: shop.seller.publishableKey });
      const rival = await shop.api.call('GET', path, { key: other.apiKey });

      expect(owner.status).toBe(200);
      expect(owner.body.licenseKey).toBe(granted.body.licenseKey);
      expect(publishable.status).toBe(403);
      expect(publishable.body.licenseKey).toBeUndefined();
      expect(rival.status).toBe(404);
      expect(JSON.stringify(rival.body)).not.toContain(granted.body.licenseKey);
    });
  });
}

describe('receipts of the terminal and of sandbox mode', () => {
  test('a terminal purchase e-mails its receipt; the buyer’s own token reads the license without its key', async () => {
    const terminal = await openTerminal();
    terminal.api.deps.mailer = mailer;
    const email = `terminal-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await terminal.payInBrowser({ email });
    const plus = await terminal.anotherProduct('Pro Plus', 2999);
    // The sign-in code goes through the SMTP server too (this buyer has no confirmed phone yet).
    const init = await terminal.loginInit(email);
    const codeMail = [...(await sink.waitFor(email, 1))].reverse().find((m) => /code is \d{6}/.test(m.text))!;
    const verified = await terminal.loginVerify({ email, otpId: init.body.otpId, otp: /code is (\d{6})/.exec(codeMail.text)![1]! });
    const token = verified.body.identityToken as string;
    await terminal.confirmPhone(token);

    const purchase = await terminal.purchase(token, plus.id);
    const confirmed = await terminal.purchaseConfirm(token, { purchaseId: purchase.purchaseId, otpId: purchase.otpId, otp: purchase.code, cardId: purchase.cards[0]!.id });
    while ((await sendDueMail(terminal.api.deps)).full);

    expect(confirmed.status).toBe(200);
    const mails = await sink.waitFor(email, 3);
    const receipt = saying(mails, '$29.99');
    expect(receipt.subject).toBe('Your Pro Plus license from Seller');
    expect(receipt.text).toContain('licensing activate --publishable-key pk_');
    expect(receipt.html).toContain(confirmed.body.licenseKey);
    expect(receipt.text).not.toContain(terminal.dev.apiKey);
    const asBuyer = await terminal.api.call('GET', `/licenses/${confirmed.body.license.id}`, { headers: terminal.bearer(token) });
    expect(asBuyer.status).toBe(200);
    expect(asBuyer.body.licenseKey).toBeUndefined();
  });

  test('in sandbox mode a receipt is kept and listed by GET /v1/sandbox/mail', async () => {
    const api = testApi();
    const seller = await signUp(api, SELLER);
    const granted = await api.call('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.productId, email: 'sandbox.buyer@example.com' } });

    await sendDueMail(api.deps);

    const kept = await api.call('GET', '/sandbox/mail?to=sandbox.buyer%40example.com');
    expect(kept.status).toBe(200);
    expect(kept.body.data).toHaveLength(1);
    expect(kept.body.data[0].subject).toBe(`Your ${PRODUCT} license from ${SELLER}`);
    expect(kept.body.data[0].text).toContain(granted.body.licenseKey);
    expect(kept.body.data[0].html).toContain(granted.body.licenseKey);
  });
});

describe('POST /licenses/:id/resend as an attacker would call it, on PostgreSQL with its shared counters', () => {
  test('200 concurrent resends: exactly 5 mails queued, 195 refused 429; a customer’s token or another seller’s key queues nothing', async () => {
    const store = await openPostgresTestStore();
    const clock = new FixedClock();
    // As the service runs on PostgreSQL: the limit lives in the database, shared by every instance.
    const limiter = await PostgresRateLimiter.open(store.store.sql, store.store.schema, clock);
    try {
      const deps = composeDeps({ store: store.store, clock, masterKey: new Uint8Array(randomBytes(32)), settings: testSettings(), mailer, rateLimiter: limiter });
      const api = testApi({ deps: deps as Deps & { clock: FixedClock } });
      const seller = await signUp(api, SELLER);
      const rival = await signUp(api, 'Rival');
      const granted = await flows(api, seller).grant(buyer(), { notify: false });
      const id = granted.body.license.id as string;
      const queued = async () => (await store.store.sql`SELECT count(*)::int AS n FROM ${store.store.sql(store.store.schema)}.mail_outbox WHERE license_id = ${id}`)[0].n as number;

      const replies = await Promise.all(Array.from({ length: 200 }, () => api.call('POST', `/licenses/${id}/resend`, { key: seller.apiKey })));
      const refusedBefore = [
        await api.call('POST', `/licenses/${id}/resend`, { headers: { authorization: 'Bearer idt_someone_elses_token_000000000000000000' } }),
        await api.call('POST', `/licenses/${id}/resend`, { key: rival.apiKey }),
        await api.call('POST', `/licenses/${id}/resend`, { key: seller.publishableKey }),
      ];

      expect(replies.filter((r) => r.status === 202)).toHaveLength(5);
      expect(replies.filter((r) => r.status === 429 && r.body.error.code === 'rate_limited')).toHaveLength(195);
      expect(refusedBefore.map((r) => [r.status, r.body.error.code])).toEqual([[401, 'unauthorized'], [404, 'not_found'], [403, 'forbidden']]);
      expect(await queued()).toBe(5);
    } finally {
      await limiter.close();
      await store.dispose();
    }
  });
});
