import { SQL } from 'bun';
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { unique } from '../contracts/builders.ts';
import { oldPostgresSchema, oldSqliteDatabase } from '../support/old-schema.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

/**
 * The previous release is the service as issue 17 left it (merge 83060c4): SQLite migrations
 * 0000–0008, PostgreSQL 0000–0006. Data it wrote (a seller with a signing key, a one-machine license
 * bound to a machine, a refunded order) is migrated by this release and keeps every rule: the key
 * still signs, the order counts as wholly refunded, and the license takes no second machine.
 */
const PREVIOUS_SQLITE = 9;
const PREVIOUS_POSTGRES = 7;
const T = Date.UTC(2026, 10, 1);

function previousReleaseRows(q: (name: string) => string): string[] {
  return [
    `INSERT INTO ${q('developers')} (id, email, name, created_at) VALUES ('dev_old', 'old@example.com', 'Old Seller', ${T})`,
    `INSERT INTO ${q('signing_keys')} (kid, developer_id, public_key, sealed_private_key, created_at, active) VALUES ('kid_old', 'dev_old', 'pub', 'sealed', ${T}, true)`,
    `INSERT INTO ${q('customers')} (id, email, phone, created_at) VALUES ('cus_old', 'buyer@example.com', NULL, ${T})`,
    `INSERT INTO ${q('products')} (id, developer_id, name, price, currency, features, license_days, active, created_at, updated_at, max_machines) VALUES ('prod_old', 'dev_old', 'P', 1500, 'usd', '["pro"]', NULL, true, ${T}, ${T}, 1)`,
    `INSERT INTO ${q('licenses')} (id, developer_id, product_id, customer_id, status, features, issued_at, license_key, key_hash, max_machines) VALUES ('lic_old', 'dev_old', 'prod_old', 'cus_old', 'active', '["pro"]', ${T}, 'key-old', 'hash-old', 1)`,
    `INSERT INTO ${q('activations')} (id, license_id, machine_fingerprint, name, created_at, last_seen_at) VALUES ('act_old', 'lic_old', 'machine-a', NULL, ${T}, ${T})`,
    `INSERT INTO ${q('orders')} (id, developer_id, customer_id, product_id, license_id, source, source_id, amount, currency, processor, payment_id, processor_reference, status, created_at, refunded_at) VALUES ('ord_old', 'dev_old', 'cus_old', 'prod_old', 'lic_old', 'checkout', 'cs_old', 1500, 'usd', 'sandbox', 'pay_old', NULL, 'refunded', ${T}, ${T + 1000})`,
  ];
}

async function expectMigratedIntact(store: Store) {
  const later = T + 86_400_000;
  // Key rotation's data migration: a key made before staged rotations signs from its creation on.
  const key = await store.signingKeys.active('dev_old', later);
  expect(key).toMatchObject({ kid: 'kid_old', notBefore: T });
  // Refunds' data migration: an order refunded before amounts were kept was refunded in full.
  expect(await store.orders.findById('ord_old')).toMatchObject({ status: 'refunded', amount: 1500, amountRefunded: 1500 });
  // The machine limit holds over the migrated binding: the bound machine is known, another is refused.
  expect((await store.licenses.activate('lic_old', { id: 'act_same', machineFingerprint: 'machine-a', name: null, at: later })).kind).toBe('existing');
  const second = await store.licenses.activate('lic_old', { id: 'act_new', machineFingerprint: 'machine-b', name: null, at: later });
  expect(second.kind).toBe('full');
  expect((await store.licenses.listActivations('lic_old')).map((a) => a.machineFingerprint)).toEqual(['machine-a']);
}

describe("data written by the previous release's schema is migrated intact", () => {
  const dir = mkdtempSync(join(tmpdir(), 'licensing-upgrade-'));
  const admin = new SQL({ url: TEST_POSTGRES_URL, max: 2 });
  const schema = `t_${unique()}`;
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.close();
  });

  test('SQLite', async () => {
    const path = join(dir, 'previous.db');
    oldSqliteDatabase(path, PREVIOUS_SQLITE, previousReleaseRows((name) => `\`${name}\``));
    const store = openSqliteStore(path, { owner: true });
    stores.push(store);
    await expectMigratedIntact(store);
  });

  test('PostgreSQL', async () => {
    await oldPostgresSchema(admin, schema, PREVIOUS_POSTGRES);
    for (const statement of previousReleaseRows((name) => `"${schema}"."${name}"`)) await admin.unsafe(statement);
    const store = await openPostgresStore(TEST_POSTGRES_URL, { schema });
    stores.push(store);
    await expectMigratedIntact(store);
  });
});
