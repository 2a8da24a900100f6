import { Database } from 'bun:sqlite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshPostgresSchema, randomMasterKey } from '../support/server-process.ts';
import { tempDir } from './support.ts';

/**
 * Where the end-to-end suites keep their data: each suite runs once per store. A restart is a new
 * process with the same env (the same SQLite file, or the same PostgreSQL schema and MASTER_KEY).
 */
export interface E2eStore {
  /** DATABASE_URL and MASTER_KEY for every process of the suite. */
  env: Record<string, string>;
  /** The master key the processes seal signing keys with (read once a process has started). */
  masterKey(): string;
  /** The sealed private keys as stored: they must never appear in a log. */
  sealedPrivateKeys(): Promise<string[]>;
  /** Runs one statement on the store as it is written (between processes: what an operator's SQL would do). */
  run(statement: string): Promise<void>;
  /** Removes the file or drops the schema. */
  dispose(): Promise<void>;
}

export interface E2eStoreSetup {
  name: string;
  open(): E2eStore;
}

const sqliteFile: E2eStoreSetup = {
  name: 'a SQLite file',
  open() {
    const dir = tempDir();
    const path = join(dir.path, 'licensing.db');
    return {
      // MASTER_KEY empty = unset: sandbox mode keeps its own key beside the database.
      env: { DATABASE_URL: `sqlite:${path}`, MASTER_KEY: '' },
      masterKey: () => readFileSync(join(dir.path, 'master.key'), 'utf8').trim(),
      async sealedPrivateKeys() {
        const db = new Database(path, { readonly: true });
        try {
          return (db.query('SELECT sealed_private_key AS k FROM signing_keys').all() as { k: string }[]).map((r) => r.k);
        } finally {
          db.close();
        }
      },
      async run(statement) {
        const db = new Database(path);
        try {
          db.run(statement);
        } finally {
          db.close();
        }
      },
      dispose: async () => dir.remove(),
    };
  },
};

const postgresSchema: E2eStoreSetup = {
  name: 'a PostgreSQL schema',
  open() {
    const schema = freshPostgresSchema();
    const masterKey = randomMasterKey();
    return {
      env: { DATABASE_URL: schema.databaseUrl, MASTER_KEY: masterKey },
      masterKey: () => masterKey,
      sealedPrivateKeys: async () => (await schema.query<{ k: string }>('SELECT sealed_private_key AS k FROM signing_keys')).map((r) => r.k),
      run: async (statement) => void (await schema.query(statement)),
      dispose: () => schema.drop(),
    };
  },
};

export const E2E_STORES: E2eStoreSetup[] = [sqliteFile, postgresSchema];
