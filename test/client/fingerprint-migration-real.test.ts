import { describe, expect, test } from 'bun:test';
import { machineFingerprint, productFingerprint } from '../../src/client/index.ts';
import { useSandboxService } from '../browser/service.ts';
import { grantedSeller } from './granted-seller.ts';
import { appClient } from './real-service.ts';
import { tempDirs } from './support.ts';

/**
 * docs/machine-files.md, "Migration", against the real server process: an application built before
 * the machine-id fingerprint bound its license by the legacy one; the new library on the same
 * machine keeps the license, and the very same activation moves to the new fingerprint.
 */
const service = useSandboxService();
const tempDir = tempDirs();

describe('from the legacy fingerprint to the machine-id one', () => {
  test('the upgraded application stays licensed on a one-machine license, the activation moves, the old fingerprint no longer holds it', async () => {
    const seller = await grantedSeller(service.call);
    const cacheDir = tempDir();
    const legacy = await machineFingerprint();
    const current = await productFingerprint(seller.productId);
    expect(current).not.toBe(legacy);

    // The application as built before: its fingerprint was the legacy formula.
    const before = appClient(service.url, seller, { cacheDir, fingerprint: legacy });
    await before.storeLicenseKey(seller.licenseKey);
    expect((await before.check()).valid).toBe(true);
    const [bound] = (await service.call('GET', `/licenses/${seller.licenseId}/activations`, { key: seller.apiKey })).body.data;
    expect(bound.machineFingerprint).toBe(legacy);

    // The same application upgraded: no fingerprint option, the same cache.
    const after = appClient(service.url, seller, { cacheDir });
    expect(await after.fingerprint()).toBe(current);
    // Offline, the answer cached under the legacy fingerprint still counts: nothing breaks before the next online check.
    const offline = appClient(service.url, seller, { cacheDir, fetch: (() => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch });
    expect(await offline.check()).toMatchObject({ valid: true, offlineVerified: true });
    expect(await offline.check()).not.toHaveProperty('warning');
    const checked = await after.check({ online: true });
    expect(checked.valid).toBe(true);
    const list = (await service.call('GET', `/licenses/${seller.licenseId}/activations`, { key: seller.apiKey })).body.data;
    expect(list).toEqual([{ ...bound, machineFingerprint: current, lastSeenAt: expect.any(Number) }]);

    // A fresh install on this machine finds itself bound; the legacy fingerprint now holds nothing.
    const reinstalled = appClient(service.url, seller, { cacheDir: tempDir() });
    await reinstalled.storeLicenseKey(seller.licenseKey);
    expect((await reinstalled.check()).valid).toBe(true);
    const stale = appClient(service.url, seller, { cacheDir: tempDir(), fingerprint: legacy });
    await stale.storeLicenseKey(seller.licenseKey);
    expect(await stale.check()).toMatchObject({ valid: false, reason: 'machine_mismatch' });
  });

  test('activate() from the upgraded application moves the slot too', async () => {
    const seller = await grantedSeller(service.call);
    const cacheDir = tempDir();
    const before = appClient(service.url, seller, { cacheDir, fingerprint: await machineFingerprint() });
    await before.storeLicenseKey(seller.licenseKey);
    const first = await before.activate({ name: 'ada-laptop' });

    const after = appClient(service.url, seller, { cacheDir });
    const again = await after.activate();

    expect(again).toEqual({ created: false, activation: { ...first.activation, machineFingerprint: await productFingerprint(seller.productId) } });
  });
});
