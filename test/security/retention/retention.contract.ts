import { describe, expect, test } from 'bun:test';
import { aLicense, DAY, T0, unique } from '../../contracts/builders.ts';
import { aCheckoutSession, aConnectState, givenSeller } from '../../contracts/checkout-builders.ts';
import { freshStorePerTest, type StoreFactory } from '../../contracts/stores.ts';
import { anIdentityToken, aPurchase, givenCustomer, givenOtp, givenPurchaseParties } from '../../contracts/terminal-builders.ts';

const CUTOFF = T0 + 10 * DAY;

/** The retention deletes each repository offers the sweep: what goes, what stays, batches and repeats. */
export function retentionContract(factory: StoreFactory): void {
  describe(`retention deletes on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('OTP challenges that expired before the cutoff go; those expiring at or after it stay', async () => {
      const { store } = opened();
      const old = await givenOtp(store, { expiresAt: CUTOFF - 1 });
      const atCutoff = await givenOtp(store, { expiresAt: CUTOFF });
      const live = await givenOtp(store, { expiresAt: CUTOFF + DAY });

      const deleted = await store.otps.deleteExpired(CUTOFF, 100);

      expect(deleted).toBe(1);
      expect(await store.otps.findById(old.id)).toBeNull();
      expect(await store.otps.findById(atCutoff.id)).not.toBeNull();
      expect(await store.otps.findById(live.id)).not.toBeNull();
    });

    test('a batch deletes at most `limit` rows; the next takes the rest; then nothing is left to delete', async () => {
      const { store } = opened();
      for (let i = 0; i < 5; i++) await givenOtp(store, { expiresAt: CUTOFF - 1 - i });

      const rounds = [await store.otps.deleteExpired(CUTOFF, 3), await store.otps.deleteExpired(CUTOFF, 3), await store.otps.deleteExpired(CUTOFF, 3)];

      expect(rounds).toEqual([3, 2, 0]);
    });

    test('identity tokens go once expired or revoked before the cutoff; live ones and recent revocations stay', async () => {
      const { store } = opened();
      const customer = await givenCustomer(store);
      const expired = anIdentityToken(customer.id, { expiresAt: CUTOFF - 1 });
      const revoked = anIdentityToken(customer.id, { expiresAt: CUTOFF + 20 * DAY, revokedAt: CUTOFF - 1 });
      const recentlyRevoked = anIdentityToken(customer.id, { expiresAt: CUTOFF + 20 * DAY, revokedAt: CUTOFF });
      const live = anIdentityToken(customer.id, { expiresAt: CUTOFF + 20 * DAY });
      for (const token of [expired, revoked, recentlyRevoked, live]) await store.identityTokens.create(token);

      const deleted = await store.identityTokens.deleteEnded(CUTOFF, 100);

      expect(deleted).toBe(2);
      expect(await store.identityTokens.findByHash(expired.tokenHash)).toBeNull();
      expect(await store.identityTokens.findByHash(revoked.tokenHash)).toBeNull();
      expect(await store.identityTokens.findByHash(recentlyRevoked.tokenHash)).not.toBeNull();
      expect(await store.identityTokens.findByHash(live.tokenHash)).not.toBeNull();
    });

    test('connect states that expired before the cutoff go; a live one still works once', async () => {
      const { store } = opened();
      const { developerId } = await givenSeller(store);
      const old = aConnectState(developerId, { expiresAt: CUTOFF - 1 });
      const live = aConnectState(developerId, { expiresAt: CUTOFF + 1 });
      await store.connections.saveState(old);
      await store.connections.saveState(live);

      const deleted = await store.connections.deleteExpiredStates(CUTOFF, 100);

      expect(deleted).toBe(1);
      expect(await store.connections.useState(old.stateHash, CUTOFF)).toBeNull();
      expect(await store.connections.useState(live.stateHash, CUTOFF)).not.toBeNull();
    });

    test('outbox messages sent before the cutoff go; later ones stay', async () => {
      const { store } = opened();
      const to = `+1555${Math.floor(Math.random() * 1e7)}`;
      await store.smsOutbox.add({ to, body: 'old', sentAt: CUTOFF - 1 });
      await store.smsOutbox.add({ to, body: 'new', sentAt: CUTOFF });

      const deleted = await store.smsOutbox.deleteSentBefore(CUTOFF, 100);

      expect(deleted).toBe(1);
      expect((await store.smsOutbox.listFor(to, 10)).map((m) => m.body)).toEqual(['new']);
    });

    test('pending purchases created before the cutoff go; recent, charging, paid and licensed ones stay', async () => {
      const { store } = opened();
      const { parties, card } = await givenPurchaseParties(store);
      const abandoned = aPurchase(parties, { createdAt: CUTOFF - 1 });
      const declinedOnce = aPurchase(parties, { createdAt: CUTOFF - 1, attempt: 1, cardId: card.id });
      const recent = aPurchase(parties, { createdAt: CUTOFF });
      const charging = aPurchase(parties, { createdAt: CUTOFF - 1, status: 'charging', attempt: 1, chargingSince: CUTOFF - 1, cardId: card.id });
      const paid = aPurchase(parties, { createdAt: CUTOFF - 1, status: 'paid', attempt: 1, cardId: card.id, paymentId: `pi_${unique()}`, licenseId: `lic_${unique()}` });
      const licensedButPending = aPurchase(parties, { createdAt: CUTOFF - 1 });
      for (const p of [abandoned, declinedOnce, recent, charging, paid, licensedButPending]) await store.purchases.create(p);
      await store.licenses.create(aLicense(parties), `hash_${unique()}`, { purchaseId: licensedButPending.id });

      const deleted = await store.purchases.deleteAbandoned(CUTOFF, 100);

      expect(deleted).toBe(2);
      for (const gone of [abandoned, declinedOnce]) expect(await store.purchases.findById(gone.id)).toBeNull();
      for (const kept of [recent, charging, paid, licensedButPending]) expect(await store.purchases.findById(kept.id)).not.toBeNull();
    });

    test('checkout sessions that expired unpaid before the cutoff go; completed, recent and licensed ones stay', async () => {
      const { store } = opened();
      const seller = await givenSeller(store);
      const customer = await givenCustomer(store);
      const session = (overrides: Parameters<typeof aCheckoutSession>[1]) => aCheckoutSession(seller, { createdAt: CUTOFF - DAY, ...overrides });
      const neverPolled = session({ expiresAt: CUTOFF - 1 });
      const expired = session({ expiresAt: CUTOFF - 1, storedStatus: 'expired' });
      const recent = session({ expiresAt: CUTOFF });
      const completed = session({ expiresAt: CUTOFF - 1 });
      const licensedFirst = session({ expiresAt: CUTOFF - 1 }); // its license is written before the session records it
      for (const s of [neverPolled, expired, recent, completed, licensedFirst]) await store.checkouts.create(s);
      await store.checkouts.markComplete(completed.id, { licenseId: `lic_${unique()}`, customerId: customer.id, paymentId: null, completedAt: CUTOFF - 2 });
      await store.licenses.create(aLicense({ ...seller, customerId: customer.id }), `hash_${unique()}`, { checkoutSessionId: licensedFirst.id });

      const deleted = await store.checkouts.deleteUnpaid(CUTOFF, 100);

      expect(deleted).toBe(2);
      for (const gone of [neverPolled, expired]) expect(await store.checkouts.findById(gone.id)).toBeNull();
      for (const kept of [recent, completed, licensedFirst]) expect(await store.checkouts.findById(kept.id)).not.toBeNull();
    });

    test('two connections deleting the same backlog at once delete each row once', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      for (let i = 0; i < 30; i++) await givenOtp(store, { expiresAt: CUTOFF - 1 });

      const counts = await Promise.all([...Array(4)].map((_, i) => (i % 2 ? other : store).otps.deleteExpired(CUTOFF, 10)));
      const rest = await store.otps.deleteExpired(CUTOFF, 100);

      expect(counts.reduce((a, b) => a + b, 0) + rest).toBe(30);
    });
  });
}
