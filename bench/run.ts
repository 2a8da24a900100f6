/**
 * `bun run bench [--fresh]`: seeds 1,000,000 bound licenses into SQLite and copies them into a
 * PostgreSQL schema, then loads the ceiling route, validation, checkout-status polling and whole
 * checkouts on both stores (PostgreSQL with one and two instances), and reports against the targets.
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (8), BENCH_CONNECTIONS (50), BENCH_THREADS (1),
 * BENCH_ROUNDS (1), BENCH_LICENSES (1000000), BENCH_SAMPLE_SIZE (20000), BENCH_PENDING_SESSIONS (2000),
 * BENCH_CHECKOUT_WORKERS (16), BENCH_POSTGRES_URL, BENCH_POSTGRES_SCHEMA (bench), BENCH_POSTGRES=0 (SQLite only),
 * BENCH_DIR (.bench), BENCH_STRICT=1 (exit 1 on a MISS), BENCH_ONLY=<text> (only the phases whose label has it),
 * BENCH_SCENARIOS=<id,id,…> (only these scenarios).
 * `bun run bench lists [--fresh]` runs only the lists scenario (bench/lists.ts; BENCH_LIST_CONNECTIONS (8),
 * BENCH_LISTS_POSTGRES_SCHEMA (bench_lists); BENCH_SECONDS 8 and BENCH_WARMUP_SECONDS 3 by default there).
 * `bun run bench sign-in` times POST /auth/login/init for unknown, phone-less and phoned e-mails (bench/sign-in-timing.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { LISTS_DIR } from './lists-seed.ts';
import { runSignInTiming } from './sign-in-timing.ts';
import { LIST_P99_TARGET_MS, renderListsReport, runLists } from './lists.ts';
import { renderReport, type ScenarioResult } from './report.ts';
import { phases, runPhase, type Phase, type StoreKind } from './scenarios.ts';
import { seedPostgres, warmPostgres } from './seed-postgres.ts';
import { BENCH_DIR, ISSUER, seed, warmPageCache, writeSample, type Meta } from './seed.ts';
import { wrkAvailable } from './wrk.ts';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number.`);
  return value;
};

const settings = {
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 8),
  connections: num('BENCH_CONNECTIONS', 50),
  threads: num('BENCH_THREADS', 1),
  rounds: num('BENCH_ROUNDS', 1),
  licenses: num('BENCH_LICENSES', 1_000_000),
  sampleSize: num('BENCH_SAMPLE_SIZE', 20_000),
  pendingSessions: num('BENCH_PENDING_SESSIONS', 2_000),
  checkoutWorkers: num('BENCH_CHECKOUT_WORKERS', 16),
};
const postgres = {
  enabled: process.env.BENCH_POSTGRES !== '0',
  url: process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test',
  schema: process.env.BENCH_POSTGRES_SCHEMA || 'bench',
};
const secs = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const runStarted = performance.now();
  if (process.argv.includes('sign-in')) return runSignInTiming();
  if (!(await wrkAvailable())) {
    console.error('wrk is not installed: `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`.');
    return 1;
  }
  const fresh = process.argv.includes('--fresh');
  if (process.argv.includes('lists')) return lists(fresh);
  console.log(`Seeding ${settings.licenses.toLocaleString('en')} bound licenses${fresh ? ' (--fresh)' : ''}…`);
  const started = performance.now();
  const seeded = await seed({ count: settings.licenses, fresh });
  console.log(seeded.reused ? `  reused ${seeded.dbPath} (${seeded.count.toLocaleString('en')} bound licenses); --fresh reseeds` : `  seeded ${seeded.dbPath} in ${secs(started)}`);
  const sampleFile = join(BENCH_DIR, 'sample.txt');
  const sampled = writeSample(seeded.dbPath, settings.sampleSize, sampleFile);
  console.log(`  ${sampled.toLocaleString('en')} random keys written to ${sampleFile}`);

  let postgresUrl: string | null = null;
  let postgresSeed: { reused: boolean; seconds: number } | null = null;
  if (postgres.enabled) {
    const meta = JSON.parse(readFileSync(join(BENCH_DIR, 'seed.json'), 'utf8')) as Meta;
    console.log(`Copying the seed into PostgreSQL (schema ${postgres.schema})…`);
    const copied = await seedPostgres({ url: postgres.url, schema: postgres.schema, sqlitePath: seeded.dbPath, meta, fresh: fresh || !seeded.reused }).catch((error) => {
      console.error(`PostgreSQL at ${postgres.url} failed: ${(error as Error).message}\nStart it (.ci/run does), set BENCH_POSTGRES_URL, or run SQLite only with BENCH_POSTGRES=0.`);
      return null;
    });
    if (!copied) return 1;
    console.log(copied.reused ? `  reused schema ${postgres.schema} (it holds the seed's licenses); --fresh recopies` : `  copied in ${copied.seconds.toFixed(1)} s`);
    postgresUrl = copied.databaseUrl;
    postgresSeed = { reused: copied.reused, seconds: copied.seconds };
  } else {
    console.log('BENCH_POSTGRES=0: PostgreSQL scenarios skipped.');
  }

  const warm = async (store: StoreKind) => (store === 'sqlite' ? warmPageCache(seeded.dbPath) : warmPostgres(postgres.url, postgres.schema));
  for (const store of postgresUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const warmStarted = performance.now();
    const bytes = await warm(store);
    console.log(`  read ${(bytes / 2 ** 20).toFixed(0)} MiB of the ${store} store into the OS page cache in ${secs(warmStarted)}`);
  }

  // Every server: the seed's key and issuer, quiet logs, the ceiling route, and no validation rate limit.
  const env = {
    MASTER_KEY: seeded.masterKey,
    PUBLIC_BASE_URL: ISSUER,
    LOG_LEVEL: 'warn',
    LICENSING_BENCH_CEILING: '1',
    VALIDATE_RATE_LIMIT_PER_MINUTE: '0',
    // The load generators are one client address doing the work of thousands.
    VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_RATE_LIMIT_PER_HOUR: '0',
    CHECKOUT_RATE_LIMIT_PER_MINUTE: '0',
  };
  const context = { settings, apiKey: seeded.publishableKey, sampleFile, benchDir: BENCH_DIR, warm };
  const results: ScenarioResult[] = [];
  let peakRssKb = 0;
  // BENCH_ONLY=<text>: only the phases whose label contains it (e.g. "two instances"), for a quick A/B.
  const only = process.env.BENCH_ONLY ?? '';
  for (const phase of withScenarios(phases(`sqlite:${seeded.dbPath}`, postgresUrl).filter((p) => p.label.includes(only)), process.env.BENCH_SCENARIOS)) {
    const ran = await runPhase(phase, env, context);
    results.push(...ran.results);
    // Issue 2's RSS target is about one process; a two-instance row sums both in its own column.
    peakRssKb = Math.max(peakRssKb, ran.peakRssKb);
  }

  const report = renderReport(results, peakRssKb, settings);
  console.log(`\n${report.text}`);
  const wallSeconds = (performance.now() - runStarted) / 1000;
  const json = {
    at: new Date().toISOString(),
    settings,
    postgres: postgres.enabled ? { schema: postgres.schema, seed: postgresSeed } : null,
    cpus: cpus().length,
    bun: Bun.version,
    wallSeconds,
    peakRssKb,
    results,
    targets: report.targets,
  };
  writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(json, (k, v) => (k === 'raw' ? undefined : v), 2)}\n`);
  console.log(`Results written to ${join(BENCH_DIR, 'results.json')} · whole run ${wallSeconds.toFixed(0)} s`);
  const dirty = results.some((r) => r.load.non2xx > 0 || r.load.socketErrors > 0);
  if (dirty) console.error('Some responses were not 2xx (or not as expected) or sockets failed: the figures are not trustworthy.');
  return dirty || (process.env.BENCH_STRICT === '1' && report.targets.some((t) => !t.pass)) ? 1 : 0;
}

/**
 * BENCH_SCENARIOS=<id,id,…>: only the scenarios with these ids (e.g. `ceiling,ceiling-signed,validate-sqlite-signed,validate-sqlite`),
 * so one run compares the validation rows with their ceilings without the checkout scenarios; phases left empty are skipped.
 */
function withScenarios(list: Phase[], ids: string | undefined): Phase[] {
  if (!ids) return list;
  const wanted = new Set(ids.split(',').map((id) => id.trim()));
  return list.map((phase) => ({ ...phase, scenarios: phase.scenarios.filter((s) => wanted.has(s.id)) })).filter((phase) => phase.scenarios.length > 0);
}

/** `bun run bench lists`: only the seller lists over 1,000,000 licenses (bench/lists.ts), both stores. */
async function lists(fresh: boolean): Promise<number> {
  const listSettings = {
    count: settings.licenses,
    seconds: num('BENCH_SECONDS', 8),
    warmupSeconds: num('BENCH_WARMUP_SECONDS', 3),
    connections: num('BENCH_LIST_CONNECTIONS', 8),
    fresh,
    postgres: { ...postgres, schema: process.env.BENCH_LISTS_POSTGRES_SCHEMA || 'bench_lists' },
  };
  const results = await runLists(listSettings);
  const report = renderListsReport(results, listSettings);
  console.log(`\n${report}`);
  writeFileSync(join(LISTS_DIR, 'results.json'), `${JSON.stringify({ at: new Date().toISOString(), settings: listSettings, cpus: cpus().length, bun: Bun.version, results }, (k, v) => (k === 'raw' ? undefined : v), 2)}\n`);
  const missed = results.some((r) => r.load.p99Ms >= r.targetMs || r.load.non2xx + r.load.socketErrors > 0);
  return missed && process.env.BENCH_STRICT === '1' ? 1 : 0;
}

process.exit(await main());
