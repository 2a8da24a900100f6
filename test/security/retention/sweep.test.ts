import { describe, expect, test } from 'bun:test';
import { startPeriodicSweep } from '../../../src/adapters/system/periodic-sweep.ts';
import { jsonLogger } from '../../../src/adapters/system/logger.ts';
import { RETENTION_MS, sweepExpired, type SweepReport } from '../../../src/app/maintenance/sweep.ts';
import { OTP_LIMITS } from '../../../src/domain/otp-challenge.ts';
import { DEACTIVATION_WINDOW_MS } from '../../../src/domain/activation.ts';
import { bindMachine, DAY, givenLicense, T0 } from '../../contracts/builders.ts';
import { aCheckoutSession, aConnectState, givenSeller } from '../../contracts/checkout-builders.ts';
import { freshStorePerTest, STORE_FACTORIES } from '../../contracts/stores.ts';
import { anIdentityToken, aPurchase, givenCustomer, givenOtp, givenPurchaseParties } from '../../contracts/terminal-builders.ts';
import type { Store } from '../../../src/ports/deps.ts';
import { FixedClock } from '../../support/clock.ts';

const NOW = T0 + 100 * DAY;

/** One record of each kind just past its retention period, and one just inside it. */
async function givenRecordsAround(store: Store, delta: 1 | -1) {
  const at = (kind: keyof typeof RETENTION_MS) => NOW - RETENTION_MS[kind] - delta; // delta 1: past it
  const customer = await givenCustomer(store);
  const seller = await givenSeller(store);
  const { parties } = await givenPurchaseParties(store);
  const otp = await givenOtp(store, { createdAt: at('otpChallenges') - 300_000, expiresAt: at('otpChallenges') });
  const token = anIdentityToken(customer.id, { expiresAt: at('identityTokens') });
  await store.identityTokens.create(token);
  const state = aConnectState(seller.developerId, { expiresAt: at('connectStates') });
  await store.connections.saveState(state);
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  await store.smsOutbox.add({ to: phone, body: 'code', sentAt: at('outboxMessages') });
  const inbox = `kept-${phone.slice(1)}@example.com`;
  await store.sandboxMail.add({ to: inbox, subject: 'Code', text: 'code', html: '<p>code</p>', sentAt: at('sandboxMail') });
  const mailId = `mail_${phone.slice(1)}`;
  await store.mailOutbox.enqueue({ id: mailId, kind: 'receipt', licenseId: `lic_${mailId}`, to: inbox, subject: 'Receipt', text: 't', html: 'h', createdAt: at('sentMail') - 1_000 });
  await store.mailOutbox.claimDue(at('sentMail') - 1_000, 100, 1_000);
  await store.mailOutbox.markSent(mailId, at('sentMail'));
  const purchase = aPurchase(parties, { createdAt: at('abandonedPurchases') });
  await store.purchases.create(purchase);
  const trialRequest = { id: `trq_${phone.slice(1)}`, developerId: seller.developerId, productId: 'prod_x', email: inbox, machineFingerprint: 'm', name: null, createdAt: at('trialRequests') - 300_000, expiresAt: at('trialRequests'), confirmedAt: null };
  await store.trialRequests.create(trialRequest);
  const session = aCheckoutSession(seller, { createdAt: at('unpaidCheckouts') - 1_800_000, expiresAt: at('unpaidCheckouts') });
  await store.checkouts.create(session);
  const eventId = `evt_${phone.slice(1)}`;
  await store.incomingWebhookEvents.claim(eventId, 'checkout.session.completed', at('incomingWebhookEvents'));
  const idem = { scope: `dev:${seller.developerId}`, key: `key-${phone}`, route: 'POST /v1/developers/products', digest: 'd', createdAt: at('idempotencyKeys') - DAY, expiresAt: at('idempotencyKeys') };
  await store.idempotencyKeys.claim(idem, 0);
  const failureKey = `email:${phone.slice(1)}`;
  await store.otps.countTowardsLock(failureKey, at('loginFailures'), OTP_LIMITS.failuresBeforeLock, OTP_LIMITS.lockMs);
  const { license } = await givenLicense(store);
  await bindMachine(store, license.id, 'removed', at('deactivations') - DAY);
  await store.licenses.deactivate(license.id, { machineFingerprint: 'removed' }, { limit: 3, now: at('deactivations'), windowMs: DEACTIVATION_WINDOW_MS });
  const consoleSession = { id: `csn_${phone.slice(1)}`, developerId: seller.developerId, tokenHash: `h-${phone}`, createdAt: at('consoleSessions') - DAY, lastUsedAt: at('consoleSessions') - DAY, expiresAt: at('consoleSessions'), revokedAt: null, userAgent: 'ua', clientAddress: '127.0.0.1', how: 'email' as const };
  await store.consoleSessions.create(consoleSession);
  const challenge = { id: `wch_${phone.slice(1)}`, purpose: 'authentication' as const, developerId: null, challenge: `c-${phone}`, createdAt: at('webauthnChallenges') - 300_000, expiresAt: at('webauthnChallenges'), usedAt: null };
  await store.passkeys.createChallenge(challenge);
  await store.leases.setOverrides(license.developerId, license.id, { maxLeases: 5, leaseSeconds: 600, maxBorrowHours: null });
  await store.leases.checkout(license.id, { id: `lease_${phone.slice(1)}`, machineFingerprint: 'leased', at: at('leases') - 600_000, borrowHours: 0 });
  return {
    async present() {
      return {
        otpChallenges: (await store.otps.findById(otp.id)) !== null,
        identityTokens: (await store.identityTokens.findByHash(token.tokenHash)) !== null,
        connectStates: (await store.connections.useState(state.stateHash, NOW)) !== null,
        outboxMessages: (await store.smsOutbox.listFor(phone, 10)).length > 0,
        sandboxMail: (await store.sandboxMail.listFor(inbox, 10)).length > 0,
        sentMail: (await store.mailOutbox.countForLicense(`lic_${mailId}`, ['receipt'], 0)) > 0,
        abandonedPurchases: (await store.purchases.findById(purchase.id)) !== null,
        trialRequests: (await store.trialRequests.findById(trialRequest.id)) !== null,
        unpaidCheckouts: (await store.checkouts.findById(session.id)) !== null,
        // Claiming again fails while the event id is kept (last: it claims an id that is gone).
        incomingWebhookEvents: !(await store.incomingWebhookEvents.claim(eventId, 'checkout.session.completed', NOW)),
        // A claim made before the record's expiry wins only where the record is gone.
        idempotencyKeys: (await store.idempotencyKeys.claim(idem, 0)) !== null,
        loginFailures: (await store.otps.loginFailures(failureKey)) !== null,
        // A quota of one whose window reaches back to the logged deactivation refuses while it is kept.
        deactivations: await stillCounted(store, license.id),
        consoleSessions: (await store.consoleSessions.findByHash(consoleSession.tokenHash)) !== null,
        webauthnChallenges: (await store.passkeys.takeChallenge('authentication', { id: challenge.id }, challenge.expiresAt - 1)) !== null,
        leases: (await store.leases.listLive(license.id, 0)).length > 0,
      };
    },
  };
}

/** Whether a deactivation of the license is still logged at `NOW - RETENTION_MS.deactivations - 1` or later. */
async function stillCounted(store: Store, licenseId: string): Promise<boolean> {
  await bindMachine(store, licenseId, 'probe', NOW);
  const quota = { limit: 1, now: NOW, windowMs: RETENTION_MS.deactivations + 2 };
  return (await store.licenses.deactivate(licenseId, { machineFingerprint: 'probe' }, quota)).kind === 'quota_exhausted';
}

const EACH = <T,>(value: T) => Object.fromEntries(Object.keys(RETENTION_MS).map((k) => [k, value])) as Record<keyof typeof RETENTION_MS, T>;

describe('the documented retention periods', () => {
  test('challenges 1 day after expiry (never less than the send-limit window), tokens and sent mail 7 days, connect states, outbox, kept mail, pending purchases and trial requests 1 day, unpaid checkouts, incoming Stripe event ids and idle sign-in failure counts 30 days, deactivations 31 days', () => {
    expect(RETENTION_MS).toEqual({
      otpChallenges: DAY,
      identityTokens: 7 * DAY,
      connectStates: DAY,
      outboxMessages: DAY,
      sandboxMail: DAY,
      sentMail: 7 * DAY,
      abandonedPurchases: DAY,
      trialRequests: DAY,
      unpaidCheckouts: 30 * DAY,
      incomingWebhookEvents: 30 * DAY,
      idempotencyKeys: 0,
      loginFailures: 30 * DAY,
      deactivations: 31 * DAY,
      consoleSessions: 7 * DAY,
      webauthnChallenges: 0,
      leases: 0,
    });
    expect(RETENTION_MS.otpChallenges).toBeGreaterThanOrEqual(OTP_LIMITS.sendWindowMs);
    expect(RETENTION_MS.deactivations).toBeGreaterThan(DEACTIVATION_WINDOW_MS);
    expect(RETENTION_MS.loginFailures).toBeGreaterThan(OTP_LIMITS.lockMs);
  });
});

for (const factory of STORE_FACTORIES) {
  describe(`sweepExpired with a fixed clock (${factory.name})`, () => {
    const opened = freshStorePerTest(factory);

    test('every kind past its period is deleted, and the report says how many', async () => {
      const { store } = opened();
      const records = await givenRecordsAround(store, 1);

      const report = await sweepExpired({ ...store, clock: new FixedClock(NOW) });

      expect(report).toEqual(EACH(1));
      expect(await records.present()).toEqual(EACH(false));
    });

    test('nothing still inside its period is touched', async () => {
      const { store } = opened();
      const records = await givenRecordsAround(store, -1);

      const report = await sweepExpired({ ...store, clock: new FixedClock(NOW) });

      expect(report).toEqual(EACH(0));
      expect(await records.present()).toEqual(EACH(true));
    });

    test('a sign-in failure count stays while its lock ran out within the period, however old its last attempt', async () => {
      const { store } = opened();
      const idle = NOW - RETENTION_MS.loginFailures - DAY;
      // Locks longer than the service's own hour: last attempt past the period, the lock not (long) over.
      await store.otps.countTowardsLock('email:lock-ran-out-lately', idle, 1, RETENTION_MS.loginFailures);
      await store.otps.countTowardsLock('email:still-locked', idle, 1, RETENTION_MS.loginFailures + 2 * DAY);
      await store.otps.countTowardsLock('email:forgotten', idle, 1, OTP_LIMITS.lockMs);

      const report = await sweepExpired({ ...store, clock: new FixedClock(NOW) });

      expect(report.loginFailures).toBe(1);
      expect(await store.otps.loginFailures('email:lock-ran-out-lately')).toMatchObject({ consecutive: 1 });
      expect(await store.otps.loginFailures('email:still-locked')).toMatchObject({ consecutive: 1, lockedUntil: NOW + DAY });
      expect(await store.otps.loginFailures('email:forgotten')).toBeNull();
    });

    test('a reset counts as a touch: a count reset within the period stays', async () => {
      const { store } = opened();
      await store.otps.countTowardsLock('email:reset-lately', NOW - 40 * DAY, OTP_LIMITS.failuresBeforeLock, OTP_LIMITS.lockMs);
      await store.otps.resetLoginFailures('email:reset-lately', NOW - DAY);

      expect((await sweepExpired({ ...store, clock: new FixedClock(NOW) })).loginFailures).toBe(0);
      expect(await store.otps.loginFailures('email:reset-lately')).toEqual({ customerId: 'email:reset-lately', consecutive: 0, lockedUntil: null });
    });

    test('a backlog is worked off in batches over several runs; sweeping again deletes nothing more', async () => {
      const { store } = opened();
      for (let i = 0; i < 5; i++) await givenOtp(store, { expiresAt: NOW - 2 * DAY });
      const deps = { ...store, clock: new FixedClock(NOW) };

      const runs = [];
      for (let i = 0; i < 3; i++) runs.push((await sweepExpired(deps, { batchSize: 2, maxBatches: 2 })).otpChallenges);

      expect(runs).toEqual([4, 1, 0]);
    });
  });
}

describe('the periodic sweep main.ts starts', () => {
  const quietLog = jsonLogger('silent');
  const report = EACH(0);

  test('runs first within the first-run window, then again each period; stop ends it and waits for a run under way', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const sweep = async () => {
      runs++;
      if (runs === 2) await new Promise<void>((r) => (release = r));
      return report;
    };
    const periodic = startPeriodicSweep(sweep, quietLog, { everyMs: 20, firstWithinMs: 5, random: () => 0.5 });
    while (runs < 2) await Bun.sleep(5);

    let stopped = false;
    const stopping = periodic.stop().then(() => (stopped = true));
    await Bun.sleep(30);
    const stoppedBeforeRunEnded = stopped;
    release();
    await stopping;
    await Bun.sleep(40);

    expect(stoppedBeforeRunEnded).toBe(false);
    expect(runs).toBe(2);
  });

  test('a failing run is logged with the first line of its error only, and the next run still comes', async () => {
    const lines: string[] = [];
    let runs = 0;
    const sweep = async () => {
      runs++;
      if (runs === 1) throw new Error('Failed query: DELETE …\nparams: secret-looking-value');
      return { ...report, otpChallenges: 3 };
    };
    const periodic = startPeriodicSweep(sweep, jsonLogger('info', (l) => lines.push(l)), { everyMs: 10, firstWithinMs: 1 });
    while (runs < 2) await Bun.sleep(5);
    await periodic.stop();

    const logged = lines.map((l) => JSON.parse(l));
    expect(logged[0]).toMatchObject({ level: 'warn', error: 'Failed query: DELETE …' });
    expect(lines.join('\n')).not.toContain('secret-looking-value');
    expect(logged[1]).toMatchObject({ level: 'info', msg: 'retention sweep', otpChallenges: 3 });
  });
});
