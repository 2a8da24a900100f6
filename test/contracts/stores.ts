import { afterEach, beforeEach } from 'bun:test';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/deps.ts';
import { type PostgresSchemaPool, testSchemas } from '../support/postgres-schemas.ts';
import { atProcessEnd } from '../support/process-end.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

/** One store under test, fresh and empty. */
export interface TestStore {
  store: Store;
  /**
   * Another connection to the same data: a second SQLite handle on the file, a second PostgreSQL
   * pool; SQLite on `:memory:` has only itself. Closed by `dispose`.
   */
  connectAgain(): Promise<Store>;
  /** Closes every connection and removes whatever the store left on disk. */
  dispose(): Promise<void>;
}

export interface StoreFactory {
  name: string;
  open(): Promise<TestStore>;
}

/** SQLite on `:memory:`: the fastest real store, with only itself to connect again to. */
export const sqliteMemoryStores: StoreFactory = {
  name: 'sqlite (:memory:)',
  async open() {
    const store = openSqliteStore(':memory:');
    return { store, connectAgain: async () => store, dispose: () => store.close() };
  },
};

let template: Promise<string> | undefined;

/**
 * `store.db` in a new temporary folder: a copy of an empty file this process migrated once. Opening
 * the copy runs the same open (pragmas, schema check, migrator finding nothing to do) in a tenth of
 * the time migrating a new file takes; migrating from nothing is tested on `:memory:` and by the
 * service's own start-ups.
 */
async function migratedSqliteFile(): Promise<{ dir: string; path: string }> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-template-'));
    atProcessEnd(async () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'template.db');
    await openSqliteStore(path).close(); // the last connection's close folds the WAL into the file
    return path;
  })();
  const source = await template;
  const dir = mkdtempSync(join(tmpdir(), 'licensing-contract-'));
  const path = join(dir, 'store.db');
  copyFileSync(source, path);
  return { dir, path };
}

/** A SQLite store on a fresh file in its own temporary folder, removed by `dispose`. */
export async function openSqliteTestStore(): Promise<TestStore & { path: string }> {
  const { dir, path } = await migratedSqliteFile();
  const store = openSqliteStore(path);
  const others: Store[] = [];
  return {
    store,
    path,
    connectAgain: async () => {
      const other = openSqliteStore(path);
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sqliteStores: StoreFactory = { name: 'sqlite', open: openSqliteTestStore };

/**
 * The store the service itself opens: exclusive locking and the write-through caches in front of
 * SQLite (a tiny cache, so eviction is exercised too). No second connection can open its file.
 */
export const sqliteOwnerStores: StoreFactory = {
  name: 'sqlite (owner, cached)',
  async open() {
    const { dir, path } = await migratedSqliteFile();
    const store = openSqliteStore(path, { owner: true, cacheEntries: 2 });
    return {
      store,
      connectAgain: async () => store,
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * A PostgreSQL store in an empty, migrated schema of this process's pool (see
 * test/support/postgres-schemas.ts), or of the pool given; `dispose` closes its connections and
 * gives the schema back.
 */
export async function openPostgresTestStore(schemas: PostgresSchemaPool = testSchemas()): Promise<TestStore & { store: PostgresStore }> {
  const schema = await schemas.take();
  const connect = () => openPostgresStore(TEST_POSTGRES_URL, { schema });
  const store = await connect().catch(async (error) => {
    await schemas.give(schema);
    throw error;
  });
  const others: Store[] = [];
  let disposed = false;
  return {
    store,
    connectAgain: async () => {
      const other = await connect();
      others.push(other);
      return other;
    },
    async dispose() {
      if (disposed) return; // a second give would hand the schema to two tests at once
      disposed = true;
      for (const other of others.splice(0)) await other.close();
      await store.close();
      await schemas.give(schema);
    },
  };
}

export const postgresStores: StoreFactory = { name: 'postgres', open: openPostgresTestStore };

/** Every adapter the contract suites run against. */
export const STORE_FACTORIES: StoreFactory[] = [sqliteMemoryStores, sqliteStores, sqliteOwnerStores, postgresStores];

/** A fresh store for each test of the enclosing describe, disposed after it. */
export function freshStorePerTest(factory: StoreFactory): () => TestStore {
  let current: TestStore | undefined;
  beforeEach(async () => {
    current = await factory.open();
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('the store is only open inside a test');
    return current;
  };
}
