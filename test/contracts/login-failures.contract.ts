import { describe, expect, test } from 'bun:test';
import { OTP_LIMITS } from '../../src/domain/otp-challenge.ts';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { givenCustomer } from './terminal-builders.ts';

const LOCK_AT = OTP_LIMITS.failuresBeforeLock;
const LOCK_UNTIL = T0 + OTP_LIMITS.lockMs;

export function loginFailuresContract(factory: StoreFactory): void {
  describe(`OtpRepository login failures on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a customer who never failed has no failure record', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      expect(await store.otps.loginFailures(customer.id)).toBeNull();
    });

    test('each failure counts one, and below the limit nothing is locked', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      const first = await store.otps.recordLoginFailure(customer.id, LOCK_AT, LOCK_UNTIL);
      const second = await store.otps.recordLoginFailure(customer.id, LOCK_AT, LOCK_UNTIL);

      expect(first).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
      expect(second).toEqual({ customerId: customer.id, consecutive: 2, lockedUntil: null });
      expect(await store.otps.loginFailures(customer.id)).toEqual(second);
    });

    test('the failure that reaches the limit locks; later ones keep counting and move the lock on', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      const first = await store.otps.recordLoginFailure(customer.id, 2, T0 + 1_000);
      const reaching = await store.otps.recordLoginFailure(customer.id, 2, T0 + 2_000);
      const beyond = await store.otps.recordLoginFailure(customer.id, 2, T0 + 3_000);

      expect(first.lockedUntil).toBeNull();
      expect(reaching).toEqual({ customerId: customer.id, consecutive: 2, lockedUntil: T0 + 2_000 });
      expect(beyond).toEqual({ customerId: customer.id, consecutive: 3, lockedUntil: T0 + 3_000 });
    });

    test('a limit of one locks on the very first failure', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      expect(await store.otps.recordLoginFailure(customer.id, 1, LOCK_UNTIL)).toEqual({
        customerId: customer.id,
        consecutive: 1,
        lockedUntil: LOCK_UNTIL,
      });
    });

    test('25 concurrent failures across two connections count to 25, and lock from the 20th on', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const customer = await givenCustomer(store);

      const states = await Promise.all(
        Array.from({ length: 25 }, (_, i) => (i % 2 ? other : store).otps.recordLoginFailure(customer.id, LOCK_AT, LOCK_UNTIL)),
      );

      const counts = states.map((s) => s.consecutive).sort((a, b) => a - b);
      expect(counts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      for (const state of states) expect(state.lockedUntil).toBe(state.consecutive >= LOCK_AT ? LOCK_UNTIL : null);
      expect(await store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: 25, lockedUntil: LOCK_UNTIL });
    });

    test('a reset starts the count again from zero and lifts the lock', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      for (let i = 0; i < 3; i++) await store.otps.recordLoginFailure(customer.id, 3, LOCK_UNTIL);

      await store.otps.resetLoginFailures(customer.id);

      expect(await store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: 0, lockedUntil: null });
      expect(await store.otps.recordLoginFailure(customer.id, 3, LOCK_UNTIL)).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
    });

    test('resetting a customer who never failed records nothing', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);

      await store.otps.resetLoginFailures(customer.id);

      expect(await store.otps.loginFailures(customer.id)).toBeNull();
    });

    test("failures are counted per customer: one customer's failures and reset leave another's alone", async () => {
      const { store } = opened();
      const failing = await givenCustomer(store);
      const other = await givenCustomer(store);
      await store.otps.recordLoginFailure(other.id, LOCK_AT, LOCK_UNTIL);

      await store.otps.recordLoginFailure(failing.id, LOCK_AT, LOCK_UNTIL);
      await store.otps.resetLoginFailures(failing.id);

      expect(await store.otps.loginFailures(other.id)).toEqual({ customerId: other.id, consecutive: 1, lockedUntil: null });
    });

    test('a key that names no customer is counted too: an unknown e-mail locks like a known one', async () => {
      const { store } = opened();
      const lookAlike = 'email:0f1e2d3c';

      await store.otps.recordLoginFailure(lookAlike, 1, LOCK_UNTIL);

      expect(await store.otps.loginFailures(lookAlike)).toEqual({ customerId: lookAlike, consecutive: 1, lockedUntil: LOCK_UNTIL });
    });

    test('failure records are copies', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      (await store.otps.recordLoginFailure(customer.id, LOCK_AT, LOCK_UNTIL)).consecutive = 99;

      (await store.otps.loginFailures(customer.id))!.lockedUntil = T0;

      expect(await store.otps.loginFailures(customer.id)).toEqual({ customerId: customer.id, consecutive: 1, lockedUntil: null });
    });
  });
}
