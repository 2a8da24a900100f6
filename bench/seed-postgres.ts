/**
 * Copies the seeded SQLite store (the seed developer, its keys, product, customers and bound
 * licenses) into a PostgreSQL schema with COPY … FROM STDIN, so both stores hold the same licenses
 * under the same master key. Reused when the schema already holds them; `fresh` drops it first.
 */
import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { openPostgresStore } from '../src/adapters/postgres/postgres-store.ts';
import type { Meta } from './seed.ts';

export interface PostgresSeeded {
  /** DATABASE_URL for the service: the base URL with ?schema=. */
  databaseUrl: string;
  reused: boolean;
  seconds: number;
}

interface Copy {
  table: string;
  /** The same names in both schemas; PostgreSQL's generated `seq` columns are left to it. */
  columns: string[];
  /** Which rows of the SQLite table belong to the seed (`$dev`: the seed developer's id). */
  where: string;
  /** SQLite 0/1 columns that are boolean in PostgreSQL. */
  booleans?: string[];
}

// In foreign-key order. JSON columns (features) are text in SQLite and go into jsonb as they are.
const COPIES: Copy[] = [
  { table: 'developers', columns: ['id', 'email', 'name', 'created_at'], where: 'id = $dev' },
  { table: 'api_keys', columns: ['id', 'developer_id', 'scope', 'key_hash', 'created_at', 'revoked_at'], where: 'developer_id = $dev' },
  {
    table: 'signing_keys',
    columns: ['kid', 'developer_id', 'public_key', 'sealed_private_key', 'created_at', 'active', 'not_before'],
    where: 'developer_id = $dev',
    booleans: ['active'],
  },
  {
    table: 'products',
    columns: ['id', 'developer_id', 'name', 'price', 'currency', 'features', 'license_days', 'active', 'created_at', 'updated_at'],
    where: 'developer_id = $dev',
    booleans: ['active'],
  },
  {
    table: 'customers',
    columns: ['id', 'email', 'phone', 'created_at'],
    where: 'EXISTS (SELECT 1 FROM licenses l WHERE l.customer_id = customers.id AND l.developer_id = $dev)',
  },
  {
    table: 'licenses',
    columns: ['id', 'developer_id', 'product_id', 'customer_id', 'status', 'features', 'issued_at', 'expires_at', 'machine_fingerprint',
      'bound_at', 'license_key', 'key_hash', 'checkout_session_id', 'purchase_id'],
    // The seed's bound licenses only: checkouts of earlier bench runs stay behind.
    where: 'developer_id = $dev AND machine_fingerprint IS NOT NULL',
  },
  {
    table: 'activations',
    columns: ['id', 'license_id', 'machine_fingerprint', 'name', 'created_at', 'last_seen_at'],
    where: 'EXISTS (SELECT 1 FROM licenses l WHERE l.id = activations.license_id AND l.developer_id = $dev)',
  },
];
const PAGE = 20_000;

export function postgresDatabaseUrl(url: string, schema: string): string {
  const withSchema = new URL(url);
  withSchema.searchParams.set('schema', schema);
  return withSchema.toString();
}

export async function seedPostgres(options: { url: string; schema: string; sqlitePath: string; meta: Meta; fresh: boolean }): Promise<PostgresSeeded> {
  const { url, schema, meta } = options;
  const databaseUrl = postgresDatabaseUrl(url, schema);
  const started = performance.now();
  const admin = new SQL({ url, max: 1 });
  try {
    if (!options.fresh && (await seededCount(admin, schema, meta.developerId)) === meta.count) {
      return { databaseUrl, reused: true, seconds: 0 };
    }
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.close();
  }
  // The service's own migrations create the tables, exactly as a server start would.
  const store = await openPostgresStore(url, { schema, max: 1 });
  const sqlite = new Database(options.sqlitePath, { readonly: true });
  // COPY needs the driver's own query (`.writable()`), not the store's gated pool (pool-gate.ts).
  const copier = new SQL({ url, max: 1 });
  try {
    for (const copy of COPIES) {
      const copied = await copyTable(sqlite, copier, schema, copy, meta.developerId);
      console.log(`  copied ${copied.toLocaleString('en')} ${copy.table} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await store.sql.unsafe(`VACUUM (ANALYZE) ${COPIES.map((c) => `"${schema}"."${c.table}"`).join(', ')}`);
  } finally {
    sqlite.close();
    await copier.close();
    await store.close();
  }
  return { databaseUrl, reused: false, seconds: (performance.now() - started) / 1000 };
}

async function seededCount(sql: SQL, schema: string, developerId: string): Promise<number> {
  // A schema seeded before a migration added activations is copied again, not reused.
  const [exists] = await sql`SELECT to_regclass(${`"${schema}".licenses`}) IS NOT NULL AND to_regclass(${`"${schema}".activations`}) IS NOT NULL AS ok`;
  if (!exists?.ok) return -1;
  const [row] = await sql.unsafe(`SELECT count(*)::int AS n FROM "${schema}".activations a JOIN "${schema}".licenses l ON l.id = a.license_id WHERE l.developer_id = $1`, [developerId]);
  return row?.n ?? -1;
}

/** Pages through SQLite by rowid and streams PostgreSQL's text format into one COPY. */
async function copyTable(sqlite: Database, sql: SQL, schema: string, copy: Copy, developerId: string): Promise<number> {
  const booleans = new Set((copy.booleans ?? []).map((c) => copy.columns.indexOf(c)));
  const page = sqlite.prepare<unknown[], { $dev: string; $after: number }>(
    `SELECT rowid, ${copy.columns.map((c) => `"${c}"`).join(', ')} FROM ${copy.table}
     WHERE rowid > $after AND (${copy.where}) ORDER BY rowid LIMIT ${PAGE}`,
  );
  const query = sql.unsafe(`COPY "${schema}"."${copy.table}" (${copy.columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`);
  const writer = query.writable().getWriter();
  let total = 0;
  try {
    for (let after = 0; ; ) {
      const rows = page.values({ $dev: developerId, $after: after });
      if (rows.length === 0) break;
      let chunk = '';
      for (const row of rows) {
        const fields: string[] = [];
        for (let i = 1; i < row.length; i++) fields.push(field(row[i], booleans.has(i - 1)));
        chunk += `${fields.join('\t')}\n`;
      }
      await writer.write(chunk);
      after = rows[rows.length - 1]![0] as number;
      total += rows.length;
    }
    await writer.close();
  } catch (error) {
    await writer.abort(error).catch(() => {});
    throw error;
  }
  await query;
  return total;
}

/** One value in COPY's text format: \N for NULL, t/f for booleans, backslash escapes for the rest. */
function field(value: unknown, boolean: boolean): string {
  if (value === null || value === undefined) return '\\N';
  if (boolean) return value ? 't' : 'f';
  return String(value).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

/**
 * The PostgreSQL counterpart of warmPageCache: reads the schema's tables and indexes into the OS
 * page cache with pg_prewarm's 'read' mode (the extension is created in public when missing), or
 * scans the licenses when the extension is not available.
 */
export async function warmPostgres(url: string, schema: string): Promise<number> {
  const sql = new SQL({ url, max: 1 });
  try {
    try {
      // Wherever it was installed (by us or anyone): a schema-less call would depend on search_path.
      let [extension] = await sql`SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_prewarm'`;
      if (!extension) {
        await sql`CREATE EXTENSION IF NOT EXISTS pg_prewarm WITH SCHEMA public`;
        extension = { schema: 'public' };
      }
      const [row] = await sql.unsafe(
        `SELECT coalesce(sum(${extension.schema}.pg_prewarm(c.oid, 'read')), 0)::bigint AS blocks FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')`,
        [schema],
      );
      return Number(row.blocks) * 8192;
    } catch (error) {
      console.error(`  pg_prewarm failed (${(error as Error).message}): scanning the licenses instead`);
      await sql.unsafe(`SELECT count(*) FROM "${schema}".licenses`);
      return 0;
    }
  } finally {
    await sql.close();
  }
}
