import { SQL } from 'bun';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { assertSchemaName, migratePostgres } from '../../src/adapters/postgres/postgres-migrate.ts';
import { atProcessEnd } from './process-end.ts';
import { TEST_POSTGRES_URL } from './postgres-url.ts';


/**
 * `tp_<host>_<pid>_`: this machine and this process. Several test processes share the database
 * (CI jobs, parallel runs), so a name never collides and a dead process's schemas are recognised.
 */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
const PREFIX = `tp_${HOST}_`;
const processPrefix = (pid: number) => `${PREFIX}${pid}_`;

let pools = 0;

/**
 * Migrated schemas, handed out empty and taken back after use: migrating a schema costs about half
 * a second, emptying one a few milliseconds. Every schema is dropped by `close`.
 */
export class PostgresSchemaPool {
  private readonly admin = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  private readonly prefix = `${processPrefix(process.pid)}${++pools}_`;
  private readonly free: string[] = [];
  private made = 0;
  private closed = false;

  /** An empty, migrated schema of this pool's own, until it is given back. */
  async take(): Promise<string> {
    if (this.closed) throw new Error('the schema pool is closed');
    await (staleDropped ??= dropStaleSchemas(this.admin));
    const reused = this.free.pop();
    if (reused) return reused;
    const schema = `${this.prefix}${++this.made}`;
    await migratePostgres(this.admin, schema);
    return schema;
  }

  /** Empties the schema for the next test. Close every connection to it first. */
  async give(schema: string): Promise<void> {
    assertSchemaName(schema);
    await emptySchema(this.admin, schema);
    this.free.push(schema);
  }

  /** Drops every schema this pool made, given back or not. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await dropSchemas(this.admin, this.prefix);
    } finally {
      await this.admin.close();
    }
  }
}

let shared: PostgresSchemaPool | undefined;

/** The pool every PostgreSQL test of this process draws from, dropped when the process's tests end. */
export function testSchemas(): PostgresSchemaPool {
  if (!shared) {
    const pool = (shared = new PostgresSchemaPool());
    atProcessEnd(() => pool.close());
  }
  return shared;
}

/**
 * Every table but the migrations' ledger emptied, tables made at run time included (the rate
 * limiter's), and every sequence restarted, in one round trip. DELETE with triggers off (replica
 * role: no outbox rows written by a delete, no foreign-key order needed) takes a few milliseconds
 * where TRUNCATE takes hundreds on the same tables; the replica role needs a superuser, as the test
 * database's `postgres` is. The schema name is ours (`[a-z0-9_]`), never input.
 */
async function emptySchema(sql: SQL, schema: string): Promise<void> {
  await sql.begin((tx) =>
    tx.unsafe(`
      SET LOCAL session_replication_role = replica;
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT tablename AS name FROM pg_tables WHERE schemaname = '${schema}' AND tablename <> '__drizzle_migrations' LOOP
          EXECUTE format('DELETE FROM %I.%I', '${schema}', r.name);
        END LOOP;
        FOR r IN SELECT sequencename AS name FROM pg_sequences WHERE schemaname = '${schema}' AND sequencename <> '__drizzle_migrations_id_seq' LOOP
          EXECUTE format('ALTER SEQUENCE %I.%I RESTART', '${schema}', r.name);
        END LOOP;
      END $$;`),
  );
}

/** By prefix, not LIKE: its `_` matches any character, so `…_12_` would take `…_123_` too. */
async function dropSchemas(sql: SQL, prefix: string): Promise<void> {
  const schemas = await sql`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ${prefix})`;
  for (const { nspname } of schemas) await sql.unsafe(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
}

let staleDropped: Promise<void> | undefined;

/** Drops the schemas of this machine's test processes that are gone (killed before their end ran). */
export async function dropStaleSchemas(sql: SQL): Promise<void> {
  const rows = await sql`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ${PREFIX})`;
  const dead = new Set<number>();
  for (const { nspname } of rows as { nspname: string }[]) {
    const pid = Number(nspname.slice(PREFIX.length).split('_')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) dead.add(pid);
  }
  for (const pid of dead) {
    try {
      await dropSchemas(sql, processPrefix(pid));
    } catch {
      // Another process is dropping the same leftovers: either way they go.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
