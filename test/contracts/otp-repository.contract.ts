import { describe, expect, test } from 'bun:test';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { anOtpChallenge, givenOtp } from './terminal-builders.ts';

export function otpRepositoryContract(factory: StoreFactory): void {
  describe(`OtpRepository challenges on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a challenge reads back field for field, with a customer or without one', async () => {
      const { store } = opened();
      const known = await givenOtp(store, { scope: 'purchase', subject: 'pur_1' });
      const lookAlike = anOtpChallenge({ customerId: null });

      await store.otps.create(lookAlike);

      expect(await store.otps.findById(known.id)).toEqual(known);
      expect(await store.otps.findById(lookAlike.id)).toEqual(lookAlike);
    });

    test('an unknown id finds nothing, counts no attempt and cannot be consumed', async () => {
      const { store } = opened();
      await givenOtp(store);

      expect(await store.otps.findById('otp_unknown')).toBeNull();
      expect(await store.otps.recordAttempt('otp_unknown')).toBe(0);
      expect(await store.otps.consume('otp_unknown', T0)).toBe(false);
    });

    test('a challenge id in use, or an unknown customer, is refused', async () => {
      const { store } = opened();
      const challenge = await givenOtp(store);

      await expect(store.otps.create({ ...challenge, codeDigest: 'other' })).rejects.toThrow();
      await expect(store.otps.create(anOtpChallenge({ customerId: 'cus_unknown' }))).rejects.toThrow();

      expect(await store.otps.findById(challenge.id)).toEqual(challenge);
    });

    test('each attempt is counted and returned including itself', async () => {
      const { store } = opened();
      const challenge = await givenOtp(store);
      const other = await givenOtp(store);

      const counts = [await store.otps.recordAttempt(challenge.id), await store.otps.recordAttempt(challenge.id)];

      expect(counts).toEqual([1, 2]);
      expect((await store.otps.findById(challenge.id))!.attempts).toBe(2);
      expect((await store.otps.findById(other.id))!.attempts).toBe(0);
    });

    test('10 concurrent attempts across two connections get the counts 1 to 10, each once', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const challenge = await givenOtp(store);

      const counts = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).otps.recordAttempt(challenge.id)));

      expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await store.otps.findById(challenge.id))!.attempts).toBe(10);
    });

    test('a challenge is consumed once: the first caller gets true and its time is kept', async () => {
      const { store } = opened();
      const challenge = await givenOtp(store);

      const first = await store.otps.consume(challenge.id, T0 + 1_000);
      const again = await store.otps.consume(challenge.id, T0 + 2_000);

      expect([first, again]).toEqual([true, false]);
      expect(await store.otps.findById(challenge.id)).toEqual({ ...challenge, usedAt: T0 + 1_000 });
    });

    test('10 concurrent consumes across two connections: exactly one gets true', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const challenge = await givenOtp(store);

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).otps.consume(challenge.id, T0 + i)));

      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await store.otps.findById(challenge.id))!.usedAt).toBe(T0 + winner);
    });

    test('a discarded challenge can never be consumed, and stays counted against the send limit', async () => {
      const { store } = opened();
      const challenge = await givenOtp(store, { createdAt: T0 + 10 });

      await store.otps.discard(challenge.id, T0 + 20);

      expect(await store.otps.consume(challenge.id, T0 + 30)).toBe(false);
      expect(await store.otps.findById(challenge.id)).toEqual({ ...challenge, usedAt: T0 + 20 });
      expect(await store.otps.sentSince(challenge.scope, challenge.subject, T0)).toEqual([T0 + 10]);
    });

    test('discarding a consumed challenge keeps the time it was used', async () => {
      const { store } = opened();
      const challenge = await givenOtp(store);
      await store.otps.consume(challenge.id, T0 + 1_000);

      await store.otps.discard(challenge.id, T0 + 2_000);

      expect((await store.otps.findById(challenge.id))!.usedAt).toBe(T0 + 1_000);
    });

    test('sentSince lists the creation times from `since` on, oldest first, for that scope and subject only', async () => {
      const { store } = opened();
      const subject = 'buyer@example.com';
      for (const createdAt of [T0 + 300, T0 - 1, T0 + 100, T0]) await store.otps.create(anOtpChallenge({ subject, createdAt }));
      await store.otps.create(anOtpChallenge({ subject: 'other@example.com', createdAt: T0 + 50 }));
      await store.otps.create(anOtpChallenge({ scope: 'purchase', subject, createdAt: T0 + 50 }));

      expect(await store.otps.sentSince('login', subject, T0)).toEqual([T0, T0 + 100, T0 + 300]);
      expect(await store.otps.sentSince('purchase', subject, T0)).toEqual([T0 + 50]);
      expect(await store.otps.sentSince('login', 'nobody@example.com', T0)).toEqual([]);
    });

    test('challenges are copies: mutating what went in or came out does not change the store', async () => {
      const { store } = opened();
      const challenge = anOtpChallenge();
      const expected = structuredClone(challenge);
      await store.otps.create(challenge);

      challenge.attempts = 99;
      (await store.otps.findById(expected.id))!.usedAt = T0;

      expect(await store.otps.findById(expected.id)).toEqual(expected);
    });
  });
}
