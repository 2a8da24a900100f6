import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../src/domain/errors.ts';
import type { License } from '../../src/domain/license.ts';
import type { LicenseReissue } from '../../src/ports/license-repository.ts';
import { DAY, givenLicense, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';
import { givenPurchase } from './terminal-builders.ts';

/** A re-signed key for the license whose current digest is `expectKeyHash`. */
function aReissue(expectKeyHash: string, overrides: Partial<LicenseReissue> = {}): LicenseReissue {
  const id = unique();
  return {
    expectKeyHash,
    licenseKey: `header.${id}.renewed`,
    keyHash: `hash_${id}`,
    expiresAt: T0 + 400 * DAY,
    features: ['export', 'sync'],
    at: T0 + 300 * DAY,
    ...overrides,
  };
}

const codeOf = (error: unknown) => (error as DomainError).code;

export function licenseReissueContract(factory: StoreFactory): void {
  describe(`LicenseRepository reissue on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a reissue keeps the id and issuedAt and replaces key, term and features', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const change = aReissue(keyHash, { features: ['export'] });

      const reissued = await store.licenses.reissue(license.id, change);

      const expected: License = { ...license, licenseKey: change.licenseKey, expiresAt: change.expiresAt, features: ['export'] };
      expect(reissued).toEqual(expected);
      expect(await store.licenses.findById(license.id)).toEqual(expected);
    });

    test('the new digest finds the license; the retired one no longer does (even once read and cached)', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const change = aReissue(keyHash);
      expect(await store.licenses.findStateByKeyHash(change.keyHash)).toBeNull();
      expect((await store.licenses.findStateByKeyHash(keyHash))?.id).toBe(license.id);

      await store.licenses.reissue(license.id, change);

      expect(await store.licenses.findStateByKeyHash(keyHash)).toBeNull();
      expect((await store.licenses.findStateByKeyHash(change.keyHash))?.expiresAt).toBe(change.expiresAt);
    });

    test('activations are kept: the same machines, the same activation ids', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { maxMachines: 2 });
      await store.licenses.activate(license.id, { id: 'act_one', machineFingerprint: 'machine-1', name: 'Laptop', at: T0 });
      await store.licenses.activate(license.id, { id: 'act_two', machineFingerprint: 'machine-2', name: null, at: T0 + 1 });
      const before = await store.licenses.listActivations(license.id);

      const reissued = await store.licenses.reissue(license.id, aReissue(keyHash));

      expect(await store.licenses.listActivations(license.id)).toEqual(before);
      expect(reissued?.machineFingerprint).toBe('machine-1');
    });

    test('a stale expected digest changes nothing and answers null', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);

      expect(await store.licenses.reissue(license.id, aReissue('hash_not_current'))).toBeNull();
      expect(await store.licenses.findById(license.id)).toEqual(license);
    });

    test('an unknown license answers null', async () => {
      const { store } = opened();

      expect(await store.licenses.reissue('lic_missing', aReissue('hash_any'))).toBeNull();
    });

    test('a second reissue must name the first one\'s digest: the retired key cannot be swapped again', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const first = aReissue(keyHash);
      await store.licenses.reissue(license.id, first);

      expect(await store.licenses.reissue(license.id, aReissue(keyHash))).toBeNull();
      const second = aReissue(first.keyHash, { expiresAt: T0 + 800 * DAY });
      expect((await store.licenses.reissue(license.id, second))?.licenseKey).toBe(second.licenseKey);
    });

    test('unchanged claims (the same key, signatures being deterministic) keep the key current', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { trial: true });

      const kept = await store.licenses.reissue(license.id, aReissue(keyHash, { keyHash, licenseKey: license.licenseKey, expiresAt: license.expiresAt, convert: {} }));

      expect(kept).toEqual({ ...license, trial: false });
      expect((await store.licenses.findStateByKeyHash(keyHash))?.id).toBe(license.id);
    });

    test('a subscription can take the license over; left undefined it is unchanged', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const takeOver = aReissue(keyHash, { subscriptionId: 'sub_1' });

      expect((await store.licenses.reissue(license.id, takeOver))?.subscriptionId).toBe('sub_1');
      expect((await store.licenses.reissue(license.id, aReissue(takeOver.keyHash)))?.subscriptionId).toBe('sub_1');
    });

    test('a trial converted by a checkout session becomes paid and is found by that session', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { trial: true });

      const converted = await store.licenses.reissue(license.id, aReissue(keyHash, { convert: { checkoutSessionId: 'cs_bought' } }));

      expect(converted?.trial).toBe(false);
      expect(await store.licenses.findByCheckoutSession('cs_bought')).toEqual(converted!);
    });

    test('a trial converted by a terminal purchase is found by that purchase', async () => {
      const { store } = opened();
      const { purchase } = await givenPurchase(store);
      const { license, keyHash } = await givenLicense(store, { trial: true });

      const converted = await store.licenses.reissue(license.id, aReissue(keyHash, { convert: { purchaseId: purchase.id } }));

      expect(converted?.id).toBe(license.id);
      expect(await store.licenses.findByPurchase(purchase.id)).toEqual(converted!);
    });

    test('a trial adopted by a subscription’s checkout stays a trial, is found by that session and names the subscription', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { trial: true });

      const adoption = aReissue(keyHash, { adopt: { checkoutSessionId: 'cs_subscribed' }, subscriptionId: 'sub_trialing' });
      const adopted = await store.licenses.reissue(license.id, adoption);

      expect(adopted).toMatchObject({ id: license.id, trial: true, subscriptionId: 'sub_trialing' });
      expect(await store.licenses.findByCheckoutSession('cs_subscribed')).toEqual(adopted!);
      // Its first charge converts it later, with no origin of its own: still the session's license.
      const converted = await store.licenses.reissue(license.id, aReissue(adoption.keyHash, { convert: {} }));
      expect(converted).toMatchObject({ id: license.id, trial: false, subscriptionId: 'sub_trialing' });
      expect(await store.licenses.findByCheckoutSession('cs_subscribed')).toEqual(converted!);
    });

    test('a trial is adopted by one subscription only, even when the re-signed key is unchanged', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store, { trial: true });
      const sameKey = { keyHash, licenseKey: license.licenseKey, expiresAt: license.expiresAt, features: license.features };
      await store.licenses.reissue(license.id, aReissue(keyHash, { ...sameKey, adopt: { checkoutSessionId: 'cs_first' }, subscriptionId: 'sub_first' }));

      const second = await store.licenses.reissue(license.id, aReissue(keyHash, { ...sameKey, adopt: {}, subscriptionId: 'sub_second' }));

      expect(second).toBeNull();
      expect(await store.licenses.findById(license.id)).toMatchObject({ subscriptionId: 'sub_first', trial: true });
      expect((await store.licenses.findByCheckoutSession('cs_first'))?.id).toBe(license.id);
    });

    test('adopting a license that is not a trial changes nothing and answers null', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);

      expect(await store.licenses.reissue(license.id, aReissue(keyHash, { adopt: { checkoutSessionId: 'cs_adopt_late' } }))).toBeNull();
      expect(await store.licenses.findByCheckoutSession('cs_adopt_late')).toBeNull();
    });

    test('converting a license that is not a trial (any more) changes nothing and answers null', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);

      expect(await store.licenses.reissue(license.id, aReissue(keyHash, { convert: { checkoutSessionId: 'cs_late' } }))).toBeNull();
      expect(await store.licenses.findByCheckoutSession('cs_late')).toBeNull();
    });

    test('converting with a checkout session that already has its license throws conflict and changes nothing', async () => {
      const { store } = opened();
      const other = await givenLicense(store, { trial: true });
      const first = await givenLicense(store, { trial: true });
      await store.licenses.reissue(first.license.id, aReissue(first.keyHash, { convert: { checkoutSessionId: 'cs_once' } }));

      const error = await store.licenses.reissue(other.license.id, aReissue(other.keyHash, { convert: { checkoutSessionId: 'cs_once' } })).catch((e: unknown) => e);

      expect(codeOf(error)).toBe('conflict');
      expect(await store.licenses.findById(other.license.id)).toEqual(other.license);
      expect((await store.licenses.findStateByKeyHash(other.keyHash))?.id).toBe(other.license.id);
    });

    test('20 concurrent reissues of one license with the same expected digest: exactly one wins', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { license, keyHash } = await givenLicense(store);
      await store.licenses.activate(license.id, { id: 'act_kept', machineFingerprint: 'machine-1', name: null, at: T0 });
      const rivals = Array.from({ length: 20 }, () => aReissue(keyHash));

      const outcomes = await Promise.all(rivals.map((r, i) => (i % 2 === 0 ? store : other).licenses.reissue(license.id, r)));

      const winners = outcomes.filter((o) => o !== null);
      expect(winners).toHaveLength(1);
      const winner = rivals[outcomes.indexOf(winners[0]!)]!;
      expect((await other.licenses.findById(license.id))?.licenseKey).toBe(winner.licenseKey);
      expect((await store.licenses.findStateByKeyHash(winner.keyHash))?.activations.map((a) => a.machineFingerprint)).toEqual(['machine-1']);
      for (const loser of rivals.filter((r) => r !== winner)) expect(await store.licenses.findStateByKeyHash(loser.keyHash)).toBeNull();
    });

    test('the license a reissue answers is a copy', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const change = aReissue(keyHash);

      (await store.licenses.reissue(license.id, change))!.features.push('tampered');

      expect((await store.licenses.findById(license.id))?.features).toEqual(change.features);
    });
  });
}
