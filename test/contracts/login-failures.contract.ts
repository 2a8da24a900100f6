import { describe, expect, test } from 'bun:test';
import { attemptAllowed, nextFailures, OTP_LIMITS, type LoginFailures } from '../../src/domain/otp-challenge.ts';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { givenCustomer } from './terminal-builders.ts';

const LOCK_AT = OTP_LIMITS.failuresBeforeLock;
const LOCK_MS = OTP_LIMITS.lockMs;
const LOCK_UNTIL = T0 + LOCK_MS;

/**
 * The failure lock of CONTRACT.md ("20 consecutive failures lock for 1 hour"), counted before each
 * code is compared: every store applies domain `nextFailures` atomically, also under concurrency.
 */
export function loginFailuresContract(factory: StoreFactory): void {
  describe(`OtpRepository failure lock on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a customer who never failed has no failure record', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      expect(await store.otps.loginFailures(customer.id)).toBeNull();
    });

    test('each attempt counts one, and below the limit nothing is locked', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      const first = await store.otps.countTowardsLock(customer.id, T0, LOCK_AT, LOCK_MS);
      const second = await store.otps.countTowardsLock(customer.id, T0 + 1, LOCK_AT, LOCK_MS);

      expect(first).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
      expect(second).toEqual({ customerId: customer.id, consecutive: 2, lockedUntil: null });
      expect(await store.otps.loginFailures(customer.id)).toEqual(second);
    });

    test('the attempt that reaches the limit locks and is allowed; later ones are counted, refused, and never move the lock', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      const first = await store.otps.countTowardsLock(customer.id, T0, 2, LOCK_MS);
      const reaching = await store.otps.countTowardsLock(customer.id, T0 + 1_000, 2, LOCK_MS);
      const beyond = await store.otps.countTowardsLock(customer.id, T0 + 2_000, 2, LOCK_MS);

      expect(first.lockedUntil).toBeNull();
      expect(reaching).toEqual({ customerId: customer.id, consecutive: 2, lockedUntil: T0 + 1_000 + LOCK_MS });
      expect(beyond).toEqual({ customerId: customer.id, consecutive: 3, lockedUntil: T0 + 1_000 + LOCK_MS });
      expect([first, reaching, beyond].map((s) => attemptAllowed(s, 2))).toEqual([true, true, false]);
    });

    test('a lock that has run out starts the count again at 1, unlocked', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      for (let i = 0; i < 3; i++) await store.otps.countTowardsLock(customer.id, T0, 2, LOCK_MS);

      const stillLocked = await store.otps.countTowardsLock(customer.id, T0 + LOCK_MS - 1, 2, LOCK_MS);
      const after = await store.otps.countTowardsLock(customer.id, T0 + LOCK_MS, 2, LOCK_MS);

      expect(stillLocked).toEqual({ customerId: customer.id, consecutive: 4, lockedUntil: LOCK_UNTIL });
      expect(after).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
    });

    test('a limit of one locks on the very first attempt, also right after a lock ran out', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      const first = await store.otps.countTowardsLock(customer.id, T0, 1, LOCK_MS);
      const afterLock = await store.otps.countTowardsLock(customer.id, LOCK_UNTIL, 1, LOCK_MS);

      expect(first).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: LOCK_UNTIL });
      expect(afterLock).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: LOCK_UNTIL + LOCK_MS });
    });

    test('200 concurrent attempts across two connections count 1 to 200 once each: exactly 20 are allowed', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const customer = await givenCustomer(store);

      const states = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? other : store).otps.countTowardsLock(customer.id, T0, LOCK_AT, LOCK_MS)),
      );

      expect(states.map((s) => s.consecutive).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(states.filter((s) => attemptAllowed(s, LOCK_AT))).toHaveLength(LOCK_AT);
      for (const state of states) expect(state.lockedUntil).toBe(state.consecutive >= LOCK_AT ? LOCK_UNTIL : null);
    });

    test('the stores agree with the domain rule, step by step', async () => {
      const { store } = opened();
      const key = 'purchase:cus_rule';
      let expected: LoginFailures | null = null;
      const times = [T0, T0 + 1, T0 + 2, T0 + 3, T0 + LOCK_MS + 2, T0 + LOCK_MS + 3, T0 + 2 * LOCK_MS + 2, T0 + 3 * LOCK_MS];

      for (const now of times) {
        expected = nextFailures(expected, key, now, 3, LOCK_MS);
        expect(await store.otps.countTowardsLock(key, now, 3, LOCK_MS)).toEqual(expected);
      }
    });

    test('a reset starts the count again from zero and lifts the lock', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      for (let i = 0; i < 3; i++) await store.otps.countTowardsLock(customer.id, T0, 3, LOCK_MS);

      await store.otps.resetLoginFailures(customer.id, T0);

      expect(await store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: 0, lockedUntil: null });
      expect(await store.otps.countTowardsLock(customer.id, T0, 3, LOCK_MS)).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
    });

    test('resetting a customer who never failed records nothing', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      await store.otps.resetLoginFailures(customer.id, T0);

      expect(await store.otps.loginFailures(customer.id)).toBeNull();
    });

    test("attempts are counted per key: one customer's attempts and reset leave another's alone", async () => {
      const { store } = opened();
      const failing = await givenCustomer(store);
      const other = await givenCustomer(store);
      await store.otps.countTowardsLock(other.id, T0, LOCK_AT, LOCK_MS);

      await store.otps.countTowardsLock(failing.id, T0, LOCK_AT, LOCK_MS);
      await store.otps.countTowardsLock(`purchase:${failing.id}`, T0, LOCK_AT, LOCK_MS);
      await store.otps.resetLoginFailures(failing.id, T0);

      expect(await store.otps.loginFailures(other.id)).toEqual({ customerId: other.id, consecutive: 1, lockedUntil: null });
      expect(await store.otps.loginFailures(`purchase:${failing.id}`)).toEqual({ customerId: `purchase:${failing.id}`, consecutive: 1, lockedUntil: null });
    });

    test('a key that names no customer is counted too: an unknown e-mail locks like a known one', async () => {
      const { store } = opened();
      const lookAlike = 'email:0f1e2d3c';

      await store.otps.countTowardsLock(lookAlike, T0, 1, LOCK_MS);

      expect(await store.otps.loginFailures(lookAlike)).toEqual({ customerId: lookAlike, consecutive: 1, lockedUntil: LOCK_UNTIL });
    });

    test('failure records are copies', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      (await store.otps.countTowardsLock(customer.id, T0, LOCK_AT, LOCK_MS)).consecutive = 99;

      (await store.otps.loginFailures(customer.id))!.lockedUntil = T0;

      expect(await store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
    });
  });
}
