import { describe, expect, test } from 'bun:test';
import type { MachineFileRecord } from '../../src/domain/machine-file.ts';
import { DAY, givenLicense, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const QUOTA = { limit: 3, windowMs: DAY };
const aFile = (licenseId: string, issuedAt: number, overrides: Partial<MachineFileRecord> = {}): MachineFileRecord => ({
  id: `mf_${unique()}`, licenseId, fingerprintHash: 'f'.repeat(64), issuedAt, expiresAt: issuedAt + 30 * DAY, ...overrides,
});

export function machineFileRepositoryContract(factory: StoreFactory): void {
  describe(`MachineFileRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('records up to the limit within the window, then refuses with when the next is allowed; the window slides', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      for (const at of [T0, T0 + 10, T0 + 20]) expect(await store.machineFiles.record(aFile(license.id, at), QUOTA)).toEqual({ kind: 'recorded' });

      expect(await store.machineFiles.record(aFile(license.id, T0 + 30), QUOTA)).toEqual({ kind: 'limited', retryAt: T0 + DAY });
      expect(await store.machineFiles.record(aFile(license.id, T0 + DAY), QUOTA)).toEqual({ kind: 'recorded' });
      expect((await store.machineFiles.list(license.id, { limit: 10 })).data).toHaveLength(4);
    });

    test('another license’s files count for it alone; an unknown license is missing and nothing is written', async () => {
      const { store } = opened();
      const a = await givenLicense(store);
      const b = await givenLicense(store);
      for (let i = 0; i < 3; i++) await store.machineFiles.record(aFile(a.license.id, T0 + i), QUOTA);

      expect(await store.machineFiles.record(aFile(b.license.id, T0 + 5), QUOTA)).toEqual({ kind: 'recorded' });
      expect(await store.machineFiles.record(aFile('lic_missing', T0), QUOTA)).toEqual({ kind: 'missing' });
      expect((await store.machineFiles.list('lic_missing', { limit: 10 })).data).toEqual([]);
    });

    test('listed newest first (issuedAt, then id), paged after a file; get finds a file of its own license only', async () => {
      const { store } = opened();
      const { license } = await givenLicense(store);
      const files = [aFile(license.id, T0, { id: 'mf_a' }), aFile(license.id, T0 + 1, { id: 'mf_b' }), aFile(license.id, T0 + 1, { id: 'mf_c' })];
      for (const f of files) await store.machineFiles.record(f, { limit: 10, windowMs: DAY });

      expect(await store.machineFiles.list(license.id, { limit: 2 })).toEqual({ data: [files[2]!, files[1]!], hasMore: true });
      expect(await store.machineFiles.list(license.id, { limit: 2, startingAfter: 'mf_b' })).toEqual({ data: [files[0]!], hasMore: false });
      expect(await store.machineFiles.get(license.id, 'mf_a')).toEqual(files[0]!);
      expect(await store.machineFiles.get('lic_other', 'mf_a')).toBeNull();
    });

    test('concurrent records from two connections: exactly the limit', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const { license } = await givenLicense(store);

      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? other : store).machineFiles.record(aFile(license.id, T0 + i), QUOTA)));

      expect(outcomes.filter((o) => o.kind === 'recorded')).toHaveLength(QUOTA.limit);
      expect((await store.machineFiles.list(license.id, { limit: 100 })).data).toHaveLength(QUOTA.limit);
    });
  });
}
