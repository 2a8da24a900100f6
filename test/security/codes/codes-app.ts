import { expect } from 'bun:test';
import type { PostgresStore } from '../../../src/adapters/postgres/postgres-store.ts';
import { PostgresRateLimiter } from '../../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import { SANDBOX_CODE } from '../../checkout/shop.ts';
import { postgresStores, sqliteStores, type StoreFactory, type TestStore } from '../../contracts/stores.ts';
import { FixedClock } from '../../support/clock.ts';
import { depsFor } from '../../support/deps.ts';
import { seller, testApi, type Reply } from '../../support/http.ts';

/**
 * The HTTP app (app.handle) over a real store, SQLite file or PostgreSQL schema, in sandbox mode:
 * a connected seller with a product, buyers who paid once in the browser (phone and card on file),
 * codes read back from the sandbox outbox. What the code limits need from both stores.
 */
export const CODE_STORES: StoreFactory[] = [sqliteStores, postgresStores];

export const DEVICE = 'device-codes-1';

export interface Buyer {
  email: string;
  phone: string;
}

let buyers = 0;
/** A buyer of its own: a fresh e-mail and phone. */
export function aBuyer(phone?: string): Buyer {
  buyers++;
  return { email: `buyer${buyers}-${crypto.randomUUID().slice(0, 8)}@example.com`, phone: phone ?? `+1555${String(1_000_000 + buyers).slice(-7)}` };
}

export async function openCodesApp(factory: StoreFactory) {
  const opened: TestStore = await factory.open();
  const clock = new FixedClock();
  const deps = depsFor(opened.store, clock);
  // With PostgreSQL, the shared counters live in PostgreSQL, as main.ts sets them up for several instances.
  if ('sql' in opened.store) {
    const postgres = opened.store as PostgresStore;
    deps.rateLimiter = await PostgresRateLimiter.open(postgres.sql, postgres.schema, clock);
  }
  // Counts the codes compared per challenge: a code is compared by digesting it under the challenge's id.
  const comparisons = new Map<string, number>();
  const codes = deps.otpCodes;
  deps.otpCodes = {
    generate: (digits) => codes.generate(digits),
    digest: (challengeId, code) => {
      comparisons.set(challengeId, (comparisons.get(challengeId) ?? 0) + 1);
      return codes.digest(challengeId, code);
    },
    equal: (a, b) => codes.equal(a, b),
  };
  /** How many codes were compared against this challenge since it was made (its creation digests once). */
  const comparedOn = (otpId: string) => (comparisons.get(otpId) ?? 1) - 1;
  const api = testApi({ deps });
  const dev = await seller(api);
  const start = await api.call('POST', '/connect/start', { key: dev.apiKey });
  const state = new URL(start.body.url).searchParams.get('state')!;
  expect((await api.call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state })}`)).status).toBe(200);

  /**
   * The buyer pays a sandbox checkout in the browser (a saved 4242 card with this phone), then, unless
   * `confirm` is false, signs in by e-mailed code and confirms that phone, as the account page does:
   * from then on their sign-in and purchase codes are texted to it.
   */
  const payInBrowser = async (buyer: Buyer, confirm = true) => {
    const init = await api.call('POST', '/checkout/init', { key: dev.apiKey, body: { productId: dev.product.id } });
    expect(init.status).toBe(201);
    const form = new URLSearchParams({ email: buyer.email, phone: buyer.phone, cardNumber: '4242 4242 4242 4242' });
    const pay = await api.call('POST', `/sandbox/checkout/${init.body.sessionId}/pay`, {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(pay.status).toBe(303);
    if (confirm) {
      // Set up as if confirmed on the account page (test/security/customers tests that flow itself):
      // these tests count texts and sends, and the setup must spend none of them.
      const customer = await deps.customers.findByEmail(buyer.email);
      expect(await deps.customers.addPhone(customer!.id, buyer.phone, clock.now())).toBe(true);
    }
    return buyer;
  };

  const outbox = async (phone: string) => {
    const reply = await api.call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
    expect(reply.status).toBe(200);
    return reply.body.data as { to: string; body: string; sentAt: number }[];
  };
  const latestCode = async (phone: string) => {
    const code = /\b(\d{6})\b/.exec((await outbox(phone))[0]?.body ?? '')?.[1];
    if (!code) throw new Error(`no code in the outbox of ${phone}`);
    return code;
  };

  const loginInit = (email: string) => api.call('POST', '/auth/login/init', { body: { email } });
  const loginVerify = (buyer: Buyer, otpId: string, otp: string) =>
    api.call('POST', '/auth/login/verify', { body: { email: buyer.email, otpId, otp, deviceFingerprint: DEVICE } });
  const challenge = async (buyer: Buyer) => {
    const init = await loginInit(buyer.email);
    expect(init.status).toBe(200);
    return { otpId: init.body.otpId as string, code: await latestCode(buyer.phone) };
  };
  const login = async (buyer: Buyer) => {
    const { otpId, code } = await challenge(buyer);
    const verified = await loginVerify(buyer, otpId, code);
    expect(verified.status).toBe(200);
    return verified.body.identityToken as string;
  };

  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'x-device-fingerprint': DEVICE });
  const purchaseInit = (token: string) => api.call('POST', '/purchase/init', { headers: bearer(token), body: { productId: dev.product.id } });
  const purchaseOtp = (token: string, purchaseId: string) => api.call('POST', '/purchase/otp', { headers: bearer(token), body: { purchaseId } });
  const purchaseConfirm = (token: string, body: { purchaseId: string; otpId: string; otp: string; cardId: string }) =>
    api.call('POST', '/purchase/confirm', { headers: bearer(token), body });

  return {
    api, deps, clock, store: opened.store, dev, comparedOn, payInBrowser, outbox, latestCode, loginInit, loginVerify, challenge, login,
    bearer, purchaseInit, purchaseOtp, purchaseConfirm, dispose: () => opened.dispose(),
  };
}

export type CodesApp = Awaited<ReturnType<typeof openCodesApp>>;

/** CONTRACT.md's error shape with this status and code. */
export function expectError(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
}

/** A 6-digit code that is certainly not `code`. */
export const wrongCode = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

export function retryAfterOf(reply: Reply): number {
  const header = reply.headers.get('retry-after');
  expect(header).toMatch(/^\d+$/);
  return Number(header);
}
