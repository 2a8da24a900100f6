/**
 * `bun run bench lists`: the seller lists over 1,000,000 licenses of one seller (bench/lists-seed.ts),
 * on SQLite and PostgreSQL, through the real server and wrk. Each query is a file of request paths
 * (random products, customers, days, prefixes, cursors) that wrk picks from at random.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LISTS_DIR, seedLists, type ListsMeta } from './lists-seed.ts';
import type { Dialect } from './lists-sql.ts';
import { warmPostgres } from './seed-postgres.ts';
import { ISSUER, warmPageCache } from './seed.ts';
import { startServer } from './server.ts';
import { runWrk, SCRIPTS, type LoadResult } from './wrk.ts';

export const LIST_P99_TARGET_MS = 20;
/** Issue 20: each of the seller console's data calls under 50 ms p99. */
export const CONSOLE_P99_TARGET_MS = 50;
const DAY = 86_400_000;

export interface ListsSettings {
  count: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  fresh: boolean;
  postgres: { enabled: boolean; url: string; schema: string };
}

export interface ListResult {
  store: Dialect;
  query: string;
  example: string;
  load: LoadResult;
  /** p99 target in ms: 20 for the lists (issue 13), 50 for the console's calls (issue 20). */
  targetMs: number;
}

type Query = [name: string, path: (m: ListsMeta, pick: Picker) => string | Promise<string>, targetMs?: number];
interface Picker {
  int(n: number): number;
  licenseId(): Promise<string>;
  /** A seed license with a machine (i % 20 in 10–15). */
  boundLicenseId(): Promise<string>;
  /** A seed license given a few events before the load (the seed writes none). */
  licenseWithEvents(): Promise<string>;
}

const L = '/v1/developers/licenses';
const email = (m: ListsMeta, p: Picker) => `buyer${p.int(m.customers)}@example.com`;
/** What the issue asks to stay under 20 ms p99, one request path per sample line. */
const QUERIES: Query[] = [
  ['licenses: newest page', () => L],
  ['licenses: a later page (random cursor)', async (_m, p) => `${L}?startingAfter=${await p.licenseId()}`],
  ['licenses: one product', (m, p) => `${L}?productId=${m.products[p.int(m.products.length)]}`],
  ['licenses: status=revoked', () => `${L}?status=revoked`],
  ['licenses: status=expired (by expiry)', () => `${L}?status=expired`],
  ['licenses: customer e-mail', (m, p) => `${L}?email=${email(m, p)}`],
  ['licenses: created in one day', (m, p) => {
    const from = m.t0 + p.int(m.count) * m.step;
    return `${L}?createdAfter=${from}&createdBefore=${from + DAY}`;
  }],
  ['customers: newest', () => '/v1/developers/customers'],
  ['customers: e-mail prefix', (m, p) => {
    const address = email(m, p);
    return `/v1/developers/customers?email=${address.slice(0, 6 + p.int(address.length - 6))}`;
  }],
  ['orders: newest', () => '/v1/developers/orders'],
  ['orders: one product', (m, p) => `/v1/developers/orders?productId=${m.products[p.int(m.products.length)]}`],
  ['orders: customer e-mail', (m, p) => `/v1/developers/orders?email=${email(m, p)}`],
  // The seller console's data calls (issue 20): stats from the rollups, and a license's page.
  ['console: stats, 30 days', () => '/v1/developers/stats', CONSOLE_P99_TARGET_MS],
  ['console: stats, 90 days', () => `/v1/developers/stats?from=${daysAgo(89)}`, CONSOLE_P99_TARGET_MS],
  ['console: stats, 365 days', () => `/v1/developers/stats?from=${daysAgo(364)}`, CONSOLE_P99_TARGET_MS],
  ['console: stats, 5 years by month', () => `/v1/developers/stats?from=${daysAgo(5 * 365)}&interval=month`, CONSOLE_P99_TARGET_MS],
  ['console: licenses, first page', () => L, CONSOLE_P99_TARGET_MS],
  ['console: licenses by e-mail', (m, p) => `${L}?email=${email(m, p)}`, CONSOLE_P99_TARGET_MS],
  ['console: a license’s machines', async (_m, p) => `/v1/licenses/${await p.boundLicenseId()}/activations`, CONSOLE_P99_TARGET_MS],
  ['console: a license’s events', async (_m, p) => `/v1/developers/events?licenseId=${await p.licenseWithEvents()}`, CONSOLE_P99_TARGET_MS],
];

/** The UTC date `days` before today, YYYY-MM-DD. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

export async function runLists(settings: ListsSettings): Promise<ListResult[]> {
  const wanted = (process.env.BENCH_LISTS_STORES ?? 'sqlite,postgres').split(',');
  const stores = (['sqlite', 'postgres'] as const).filter((s) => wanted.includes(s) && (s === 'sqlite' || settings.postgres.enabled));
  const results: ListResult[] = [];
  for (const store of stores) {
    console.log(`Lists on ${store}: seeding ${settings.count.toLocaleString('en')} licenses${settings.fresh ? ' (--fresh)' : ''}…`);
    const seeded = await seedLists({ store, count: settings.count, fresh: settings.fresh, postgresUrl: settings.postgres.url, schema: settings.postgres.schema });
    console.log(seeded.reused ? `  reused the ${store} seed (--fresh reseeds)` : `  seeded in ${Object.values(seeded.meta.timings).reduce((a, b) => a + b, 0).toFixed(0)} s`);
    results.push(...(await measureStore(store, seeded.meta, seeded.databaseUrl, settings)));
  }
  return results;
}

async function measureStore(store: Dialect, meta: ListsMeta, databaseUrl: string, settings: ListsSettings): Promise<ListResult[]> {
  const files = await writeSamples(store, meta, databaseUrl);
  const bytes = store === 'sqlite' ? warmPageCache(join(LISTS_DIR, 'lists.db')) : await warmPostgres(settings.postgres.url, settings.postgres.schema);
  console.log(`  read ${(bytes / 2 ** 20).toFixed(0)} MiB of the store into the OS page cache`);
  const server = await startServer({ DATABASE_URL: databaseUrl, MASTER_KEY: meta.masterKey, PUBLIC_BASE_URL: ISSUER, LOG_LEVEL: 'warn', RETENTION_SWEEP_MINUTES: '0' });
  const results: ListResult[] = [];
  try {
    for (const [index, [name]] of QUERIES.entries()) {
      if (!name.includes(process.env.BENCH_LISTS_ONLY ?? '')) continue;
      const file = files[index]!;
      await sanity(server.url, meta.apiKey, file.example);
      const load = (seconds: number) =>
        runWrk({ url: server.url, path: file.example, apiKey: meta.apiKey, sampleFile: file.path, seconds, connections: settings.connections, threads: 1, script: SCRIPTS.getPath, getWithKey: true });
      process.stdout.write(`  ${name}: warm-up ${settings.warmupSeconds} s`);
      await load(settings.warmupSeconds);
      const measured = await load(settings.seconds);
      console.log(` → ${Math.round(measured.rps).toLocaleString('en')} req/s, p50 ${measured.p50Ms.toFixed(2)} ms, p99 ${measured.p99Ms.toFixed(2)} ms`);
      results.push({ store, query: name, example: file.example, load: measured, targetMs: QUERIES[index]![2] ?? LIST_P99_TARGET_MS });
    }
  } finally {
    const code = await server.stop();
    if (code !== 0) console.error(`The server exited with ${code}:\n${server.output().slice(-2000)}`);
  }
  return results;
}

/** One file of 500 request paths per query; license cursors are random seed licenses (found by issued_at). */
async function writeSamples(store: Dialect, meta: ListsMeta, databaseUrl: string): Promise<{ path: string; example: string }[]> {
  const idAt = await licenseIdLookup(store, meta, databaseUrl);
  const withEvents: string[] = [];
  const picker: Picker = {
    int: (n) => Math.floor(Math.random() * n),
    licenseId: () => idAt(Math.floor(Math.random() * meta.count)),
    boundLicenseId: () => idAt(Math.min(meta.count - 1, 20 * Math.floor(Math.random() * (meta.count / 20)) + 10 + Math.floor(Math.random() * 6))),
    licenseWithEvents: async () => {
      const id = await idAt(Math.floor(Math.random() * meta.count));
      withEvents.push(id);
      return id;
    },
  };
  const files = [];
  try {
    for (const [index, [, pathOf]] of QUERIES.entries()) {
      const lines: string[] = [];
      for (let i = 0; i < 500; i++) lines.push(await pathOf(meta, picker));
      const path = join(LISTS_DIR, `paths-${store}-${index}.txt`);
      writeFileSync(path, `${lines.join('\n')}\n`);
      files.push({ path, example: lines[0]! });
    }
    await idAt.writeEvents(meta.developerId, withEvents);
  } finally {
    await idAt.close();
  }
  return files;
}

/** Three events per license (created, a machine, renewed), as its page lists them; ids and times are ours. */
function eventRows(developerId: string, licenseIds: string[]): string {
  const now = Date.now();
  const rows = licenseIds.flatMap((id, n) =>
    ['license.created', 'activation.created', 'license.renewed'].map(
      (type, k) => `('msg_bench${n}x${k}${now}', '${developerId}', '${type}', '{"license":{"id":"${id}"}}', ${now - (3 - k) * 60_000}, '${id}')`,
    ),
  );
  return `INSERT INTO outgoing_events (id, developer_id, type, data, created_at, license_id) VALUES ${rows.join(', ')}`;
}

async function licenseIdLookup(store: Dialect, meta: ListsMeta, databaseUrl: string) {
  const query = `SELECT id FROM licenses WHERE developer_id = '${meta.developerId}' AND issued_at = `;
  if (store === 'sqlite') {
    const { Database } = await import('bun:sqlite');
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    return Object.assign(async (i: number) => (db.query(`${query}${meta.t0 + i * meta.step}`).get() as { id: string }).id, {
      writeEvents: async (developerId: string, ids: string[]) => void (ids.length && db.run(eventRows(developerId, ids))),
      close: async () => db.close(),
    });
  }
  const { SQL } = await import('bun');
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const sql = new SQL({ url: url.toString(), max: 1 });
  const scoped = query.replace('FROM licenses', `FROM "${schema}".licenses`);
  return Object.assign(async (i: number) => ((await sql.unsafe(`${scoped}${meta.t0 + i * meta.step}`)) as { id: string }[])[0]!.id, {
    writeEvents: async (developerId: string, ids: string[]) => void (ids.length && (await sql.unsafe(eventRows(developerId, ids).replace('INTO outgoing_events', `INTO "${schema}".outgoing_events`)))),
    close: () => sql.close(),
  });
}

/** The load measures answers, not errors: each query's first path must be a 200 with data (stats: with a series). */
async function sanity(url: string, apiKey: string, path: string): Promise<void> {
  const reply = await fetch(`${url}${path}`, { headers: { 'x-api-key': apiKey } });
  const body = (await reply.json()) as { data?: unknown[]; series?: unknown[] };
  if (reply.status !== 200 || !(body.data ?? body.series)?.length) throw new Error(`${path} answered ${reply.status} ${JSON.stringify(body).slice(0, 300)}`);
}

export function renderListsReport(results: ListResult[], settings: ListsSettings): string {
  const rows = results.map((r) => {
    const pass = r.load.p99Ms < r.targetMs && r.load.non2xx + r.load.socketErrors === 0;
    return `| ${r.query} | ${r.store} | ${Math.round(r.load.rps).toLocaleString('en')} | ${r.load.p50Ms.toFixed(2)} | ${r.load.p99Ms.toFixed(2)} | ${r.load.non2xx + r.load.socketErrors} | < ${r.targetMs}: ${pass ? 'PASS' : 'MISS'} |`;
  });
  return [
    `${settings.count.toLocaleString('en')} licenses of one seller · wrk -t1 -c${settings.connections} -d${settings.seconds}s per query · target p99 < ${LIST_P99_TARGET_MS} ms (lists), < ${CONSOLE_P99_TARGET_MS} ms (console)`,
    '',
    '| query | store | req/s | p50 ms | p99 ms | errors | p99 target |',
    '|---|---|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}
