import { SQL } from 'bun';
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { signInPhone } from '../../src/domain/customer.ts';
import type { Store } from '../../src/ports/deps.ts';
import { unique } from '../contracts/builders.ts';
import { oldPostgresSchema, oldSqliteDatabase } from '../support/old-schema.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

/**
 * The e-mail identity migration (docs/customers.md): a phone a checkout set before it is no sign-in
 * factor afterwards, and every session signed in before it has ended.
 */
const T = Date.UTC(2026, 5, 1);
const FAR = T + 365 * 86_400_000;

function oldRows(q: (name: string) => string): string[] {
  return [
    `INSERT INTO ${q('customers')} (id, email, phone, created_at) VALUES ('cus_planted', 'victim@example.com', '+15559990000', ${T})`,
    `INSERT INTO ${q('identity_tokens')} (token_hash, customer_id, device_fingerprint, created_at, expires_at, revoked_at) VALUES ('hash-live', 'cus_planted', 'dev', ${T}, ${FAR}, NULL)`,
    `INSERT INTO ${q('identity_tokens')} (token_hash, customer_id, device_fingerprint, created_at, expires_at, revoked_at) VALUES ('hash-ended', 'cus_planted', 'dev', ${T}, ${FAR}, ${T + 5})`,
  ];
}

async function expectNoFactorLeft(store: Store) {
  const customer = await store.customers.findById('cus_planted');
  expect(customer).toMatchObject({ phone: '+15559990000', phoneVerifiedAt: null });
  expect(signInPhone(customer)).toBeNull();
  const live = await store.identityTokens.findByHash('hash-live');
  expect(live!.revokedAt).toBeGreaterThan(T);
  expect((await store.identityTokens.findByHash('hash-ended'))!.revokedAt).toBe(T + 5);
}

// The migrations before e-mail identity: 0000–0007 on SQLite, 0000–0005 on PostgreSQL.
const BEFORE_SQLITE = 8;
const BEFORE_POSTGRES = 6;

describe('the e-mail identity migration confirms no old phone and ends every old session', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-migrate-'));
    dirs.push(dir);
    const path = join(dir, 'old.db');
    oldSqliteDatabase(path, BEFORE_SQLITE, oldRows((name) => `\`${name}\``));

    const store = openSqliteStore(path);
    stores.push(store);

    await expectNoFactorLeft(store);
  });

  describe('PostgreSQL', () => {
    const admin = new SQL({ url: TEST_POSTGRES_URL, max: 2 });
    const schema = `t_${unique()}`;
    afterAll(async () => {
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.close();
    });

    test('PostgreSQL', async () => {
      await oldPostgresSchema(admin, schema, BEFORE_POSTGRES);
      for (const statement of oldRows((name) => `"${schema}"."${name}"`)) await admin.unsafe(statement);

      const store = await openPostgresStore(TEST_POSTGRES_URL, { schema });
      stores.push(store);

      await expectNoFactorLeft(store);
    });
  });
});
