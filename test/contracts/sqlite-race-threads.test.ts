import { afterEach, beforeEach, expect, test } from 'bun:test';
import { OTP_LIMITS } from '../../src/domain/otp-challenge.ts';
import { boundMachine, givenLicense, T0 } from './builders.ts';
import type { RaceOp, RaceOrder, RaceResult } from './sqlite-race-worker.ts';
import { openSqliteTestStore } from './stores.ts';
import { givenCustomer, givenOtp, givenPurchase } from './terminal-builders.ts';

// Real parallelism: 4 threads, each with its own SQLite connection to one file, 5 calls each.
const THREADS = 4;
const PER_THREAD = 5;
const ALL = THREADS * PER_THREAD;

let opened: Awaited<ReturnType<typeof openSqliteTestStore>>;
beforeEach(async () => {
  opened = await openSqliteTestStore();
});
afterEach(async () => {
  await opened.dispose();
});

function raceInThread(order: RaceOrder): Promise<RaceResult[]> {
  const worker = new Worker(new URL('./sqlite-race-worker.ts', import.meta.url).href);
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<RaceResult[]>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (error) => {
      reject(error);
      worker.terminate();
    };
    worker.postMessage(order);
  });
}

async function race(op: RaceOp): Promise<RaceResult[]> {
  const barrier = new SharedArrayBuffer(8);
  const order = { path: opened.path, op, calls: PER_THREAD, barrier, threads: THREADS };
  return (await Promise.all(Array.from({ length: THREADS }, () => raceInThread(order)))).flat();
}

const oneToAll = Array.from({ length: ALL }, (_, i) => i + 1);

test('20 binds of one license from 4 connections agree on one winner, which the store holds', async () => {
  const { license } = await givenLicense(opened.store);

  const results = await race({ kind: 'bind', licenseId: license.id });

  const winner = results[0]!;
  expect(String(winner)).toStartWith('machine-');
  expect(results).toEqual(results.map(() => winner));
  expect(boundMachine(await opened.store.licenses.findStateById(license.id))).toBe(winner as string);
});

test('20 consumes of one code from 4 connections: exactly one succeeds', async () => {
  const challenge = await givenOtp(opened.store);

  const results = await race({ kind: 'consume', otpId: challenge.id });

  expect(results.filter((r) => r === true)).toHaveLength(1);
  expect((await opened.store.otps.findById(challenge.id))!.usedAt).not.toBeNull();
});

test('20 attempts on one code from 4 connections get the counts 1 to 20, each once', async () => {
  const challenge = await givenOtp(opened.store);

  const results = await race({ kind: 'recordAttempt', otpId: challenge.id });

  expect((results as number[]).sort((a, b) => a - b)).toEqual(oneToAll);
  expect((await opened.store.otps.findById(challenge.id))!.attempts).toBe(ALL);
});

test('20 charge starts of one purchase from 4 connections: exactly one starts attempt 1', async () => {
  const { purchase, card } = await givenPurchase(opened.store);

  const results = await race({ kind: 'beginCharge', purchaseId: purchase.id, cardId: card.id, staleBefore: T0 });

  expect(results.filter((r) => r === true)).toHaveLength(1);
  expect(await opened.store.purchases.findById(purchase.id)).toMatchObject({ status: 'charging', attempt: 1 });
});

test('20 attempts under one failure key from 4 connections count 1 to 20, each once, and the last one locks', async () => {
  const customer = await givenCustomer(opened.store);
  const lockUntil = T0 + OTP_LIMITS.lockMs;

  const results = await race({ kind: 'countTowardsLock', customerId: customer.id, now: T0, lockAt: ALL, lockMs: OTP_LIMITS.lockMs });

  expect((results as number[]).sort((a, b) => a - b)).toEqual(oneToAll);
  expect(await opened.store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: ALL, lockedUntil: lockUntil });
});
