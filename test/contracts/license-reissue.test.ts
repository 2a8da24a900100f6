import { describe, expect, test } from 'bun:test';
import type { Database } from 'bun:sqlite';
import { licenseReissueContract } from './license-reissue.contract.ts';
import { DAY, givenLicense, T0 } from './builders.ts';
import { openPostgresTestStore, openSqliteTestStore, STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseReissueContract(factory);

/** Rows of the SQL stores a reissue writes besides the license: the retired key, the outbox, the expiry mark. */
interface SqlProbe {
  rows(query: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
}

const SQL_STORES = [
  {
    name: 'sqlite',
    async open() {
      const opened = await openSqliteTestStore();
      const sqlite = (opened.store as unknown as { sqlite: Database }).sqlite;
      const probe: SqlProbe = { rows: async (query, ...params) => sqlite.query(query.replaceAll(/\$\d/g, '?')).all(...(params as never[])) as Record<string, unknown>[] };
      return { ...opened, probe };
    },
  },
  {
    name: 'postgres',
    async open() {
      const opened = await openPostgresTestStore();
      const probe: SqlProbe = { rows: async (query, ...params) => (await opened.store.sql.unsafe(query, params as never[])) as Record<string, unknown>[] };
      return { ...opened, probe };
    },
  },
];

for (const { name, open } of SQL_STORES) {
  describe(`LicenseRepository reissue rows on ${name}`, () => {
    test('the replaced digest is recorded as retired, with the license and the time', async () => {
      const { store, probe, dispose } = await open();
      try {
        const { license, keyHash } = await givenLicense(store);

        await store.licenses.reissue(license.id, { expectKeyHash: keyHash, licenseKey: 'h.p.new', keyHash: 'hash_new', expiresAt: T0 + 400 * DAY, features: [], at: T0 + 5 });

        const rows = await probe.rows('SELECT key_hash, license_id, retired_at FROM retired_license_keys');
        expect(rows.map((r) => ({ keyHash: r.key_hash, licenseId: r.license_id, retiredAt: Number(r.retired_at) }))).toEqual([{ keyHash, licenseId: license.id, retiredAt: T0 + 5 }]);
      } finally {
        await dispose();
      }
    });

    test('20 concurrent renewals of one license write one license.renewed event', async () => {
      const { store, probe, dispose } = await open();
      try {
        const { license, keyHash } = await givenLicense(store);
        const rivals = Array.from({ length: 20 }, (_, i) => ({ expectKeyHash: keyHash, licenseKey: `h.p.${i}`, keyHash: `hash_${i}`, expiresAt: T0 + 400 * DAY, features: [], at: T0 }));

        await Promise.all(rivals.map((r) => store.licenses.reissue(license.id, r)));

        const events = await probe.rows("SELECT type FROM outgoing_events WHERE type = 'license.renewed'");
        expect(events).toHaveLength(1);
      } finally {
        await dispose();
      }
    });

    test('a new expiresAt clears the expiry announcement; an unchanged one keeps it', async () => {
      const { store, probe, dispose } = await open();
      try {
        const { license, keyHash } = await givenLicense(store);
        const announced = async () => (await probe.rows('SELECT expiry_announced_at AS at FROM licenses WHERE id = $1', license.id))[0]?.at ?? null;
        await probe.rows('UPDATE licenses SET expiry_announced_at = $1 WHERE id = $2', T0, license.id);

        await store.licenses.reissue(license.id, { expectKeyHash: keyHash, licenseKey: 'h.p.same', keyHash: 'hash_same', expiresAt: license.expiresAt, features: ['x'], at: T0 });
        expect(Number(await announced())).toBe(T0);

        await store.licenses.reissue(license.id, { expectKeyHash: 'hash_same', licenseKey: 'h.p.later', keyHash: 'hash_later', expiresAt: T0 + 800 * DAY, features: ['x'], at: T0 });
        expect(await announced()).toBeNull();
      } finally {
        await dispose();
      }
    });
  });
}
