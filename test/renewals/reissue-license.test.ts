import { describe, expect, test } from 'bun:test';
import { reissueLicense, renewLicense } from '../../src/app/licenses/reissue-license.ts';
import type { DomainError } from '../../src/domain/errors.ts';
import { DAY, renewable, verifiedClaims } from './support.ts';

describe('renewLicense', () => {
  test('extends the license in place: same id, original issuedAt, a fresh key signed by the seller with the new expiry', async () => {
    const { api, s, license, licenseKey } = await renewable();
    const later = license.expiresAt + 30 * DAY;

    const renewed = await renewLicense(api.deps, license.id, later);

    expect(renewed).toMatchObject({ id: license.id, issuedAt: license.issuedAt, expiresAt: later });
    expect(renewed.licenseKey).not.toBe(licenseKey);
    const { claims } = await verifiedClaims(api, s.id, renewed.licenseKey);
    expect(claims).toEqual({ ...(await verifiedClaims(api, s.id, licenseKey)).claims, expiresAt: later });
    expect(await api.deps.licenses.findById(license.id)).toEqual(renewed);
  });

  test('a date not later than the current expiry changes nothing, not even the key', async () => {
    const { api, license, licenseKey } = await renewable();

    for (const date of [license.expiresAt, license.expiresAt - DAY]) {
      expect((await renewLicense(api.deps, license.id, date)).licenseKey).toBe(licenseKey);
    }
  });

  test('idempotent and order-independent: the latest date wins whatever order the renewals come in', async () => {
    const { api, license } = await renewable();
    const [first, second] = [license.expiresAt + 30 * DAY, license.expiresAt + 60 * DAY];

    const afterSecond = await renewLicense(api.deps, license.id, second);
    const afterFirst = await renewLicense(api.deps, license.id, first);
    const again = await renewLicense(api.deps, license.id, second);

    expect(afterFirst).toEqual(afterSecond);
    expect(again).toEqual(afterSecond);
    expect(afterSecond.expiresAt).toBe(second);
  });

  test('20 concurrent renewals to different dates all succeed and leave the latest date', async () => {
    const { api, license } = await renewable();
    const dates = Array.from({ length: 20 }, (_, i) => license.expiresAt + (i + 1) * DAY);

    await Promise.all(dates.map((date) => renewLicense(api.deps, license.id, date)));

    expect((await api.deps.licenses.findById(license.id))?.expiresAt).toBe(Math.max(...dates));
  });

  test('a revoked license is never renewed', async () => {
    const { api, s, license, licenseKey } = await renewable();
    await api.call('POST', `/licenses/${license.id}/revoke`, { key: s.apiKey });

    const after = await renewLicense(api.deps, license.id, license.expiresAt + 30 * DAY);

    expect(after).toMatchObject({ storedStatus: 'revoked', expiresAt: license.expiresAt, licenseKey });
  });

  test('a perpetual license stays perpetual', async () => {
    const { api, s } = await renewable();
    const { license, licenseKey } = await s.grant();

    expect(await renewLicense(api.deps, license.id, api.clock.now() + DAY)).toMatchObject({ expiresAt: null, licenseKey });
  });

  test('activations are kept', async () => {
    const { api, s, license, licenseKey } = await renewable();
    await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'machine-a' } });
    const before = await api.deps.licenses.listActivations(license.id);

    await renewLicense(api.deps, license.id, license.expiresAt + DAY);

    expect(before).toHaveLength(1);
    expect(await api.deps.licenses.listActivations(license.id)).toEqual(before);
  });

  test('after a signing-key rotation the fresh key is signed with the new key', async () => {
    const { api, s, license, licenseKey } = await renewable();
    const rotation = await api.call('POST', '/developers/signing-keys/rotate', { key: s.apiKey, body: { notBefore: api.clock.now() } });
    expect(rotation.status).toBe(201);

    const renewed = await renewLicense(api.deps, license.id, license.expiresAt + DAY);

    const [before, after] = [await verifiedClaims(api, s.id, licenseKey), await verifiedClaims(api, s.id, renewed.licenseKey)];
    expect(after.kid).not.toBe(before.kid);
    expect(after.claims.id).toBe(license.id);
  });

  test('an unknown license is not_found', async () => {
    const { api } = await renewable();

    const error = await renewLicense(api.deps, 'lic_missing', Date.now()).catch((e: DomainError) => e);

    expect((error as DomainError).code).toBe('not_found');
  });
});

describe('reissueLicense', () => {
  test('a change that answers null leaves the license as it is', async () => {
    const { api, license, licenseKey } = await renewable();

    expect((await reissueLicense(api.deps, license.id, () => null)).licenseKey).toBe(licenseKey);
  });

  test('new features are signed into the key; features left out are kept', async () => {
    const { api, s, license } = await renewable();

    const changed = await reissueLicense(api.deps, license.id, () => ({ expiresAt: license.expiresAt, features: ['pro', 'sync'] }));
    const kept = await reissueLicense(api.deps, license.id, (current) => ({ expiresAt: current.expiresAt! + DAY }));

    expect((await verifiedClaims(api, s.id, changed.licenseKey)).claims.features).toEqual(['pro', 'sync']);
    expect(kept.features).toEqual(['pro', 'sync']);
  });

  test('after a lost compare-and-swap the change is asked again with the license as it is now', async () => {
    const { api, license } = await renewable();
    const licenses = api.deps.licenses;
    let raced = false;
    // Another renewal commits between this reissue's read and its swap.
    const racing: typeof licenses = Object.create(licenses, {
      reissue: {
        value: async (id: string, change: Parameters<typeof licenses.reissue>[1]) => {
          if (!raced) {
            raced = true;
            await renewLicense(api.deps, license.id, license.expiresAt + 10 * DAY);
          }
          return licenses.reissue(id, change);
        },
      },
    });
    const seen: number[] = [];

    const result = await reissueLicense({ ...api.deps, licenses: racing }, license.id, (current) => {
      seen.push(current.expiresAt!);
      return { expiresAt: current.expiresAt! + DAY };
    });

    expect(seen).toEqual([license.expiresAt, license.expiresAt + 10 * DAY]);
    expect(result.expiresAt).toBe(license.expiresAt + 11 * DAY);
  });
});
