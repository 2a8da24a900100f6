/**
 * `bun run bench [--fresh]`: seeds 1,000,000 bound licenses, starts the real server, loads the
 * validation hot path and the ceiling route with wrk, and reports against the targets.
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (8), BENCH_CONNECTIONS (50), BENCH_THREADS (1),
 * BENCH_ROUNDS (1), BENCH_LICENSES (1000000), BENCH_SAMPLE_SIZE (20000), BENCH_STRICT=1 (exit 1 on a MISS).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { checkResponses } from './checks.ts';
import { renderReport, type ScenarioResult } from './report.ts';
import { BENCH_DIR, ISSUER, seed, warmPageCache, writeSample } from './seed.ts';
import { sampleRss, startServer } from './server.ts';
import { runWrk, wrkAvailable, type LoadResult } from './wrk.ts';

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
};
interface Scenario {
  name: string;
  path: string;
  /** Which server it runs against: the service as configured by default, or with the license cache off. */
  server: 'default' | 'uncached';
}
const SCENARIOS: Scenario[] = [
  { name: 'ceiling (POST /v1/bench/ceiling)', path: '/v1/bench/ceiling', server: 'default' },
  { name: 'validate (POST /v1/licenses/validate)', path: '/v1/licenses/validate', server: 'default' },
  { name: 'validate, license cache off (every read from SQLite)', path: '/v1/licenses/validate', server: 'uncached' },
];
const SERVER_ENV: Record<Scenario['server'], Record<string, string>> = { default: {}, uncached: { LICENSE_CACHE_SIZE: '0' } };

async function main(): Promise<number> {
  if (!(await wrkAvailable())) {
    console.error('wrk is not installed: `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`.');
    return 1;
  }
  const fresh = process.argv.includes('--fresh');
  console.log(`Seeding ${settings.licenses.toLocaleString('en')} bound licenses${fresh ? ' (--fresh)' : ''}…`);
  const started = performance.now();
  const seeded = await seed({ count: settings.licenses, fresh });
  console.log(
    seeded.reused
      ? `  reused ${seeded.dbPath} (${seeded.count.toLocaleString('en')} bound licenses); --fresh reseeds`
      : `  seeded ${seeded.dbPath} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const sampleFile = join(BENCH_DIR, 'sample.txt');
  const sampled = writeSample(seeded.dbPath, settings.sampleSize, sampleFile);
  console.log(`  ${sampled.toLocaleString('en')} random keys written to ${sampleFile}`);
  const warmStarted = performance.now();
  const warmed = warmPageCache(seeded.dbPath);
  console.log(`  read ${(warmed / 2 ** 20).toFixed(0)} MiB of the store into the OS page cache in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s`);

  let exitCode = 0;
  const results: ScenarioResult[] = [];
  let peakRssKb = 0;
  for (const kind of ['default', 'uncached'] as const) {
    const server = await startServer({
      DATABASE_URL: `sqlite:${seeded.dbPath}`,
      MASTER_KEY: seeded.masterKey,
      PUBLIC_BASE_URL: ISSUER,
      LOG_LEVEL: 'warn',
      LICENSING_BENCH_CEILING: '1',
      ...SERVER_ENV[kind],
    });
    console.log(`Server (${kind}) pid ${server.pid} at ${server.url}`);
    const rss = sampleRss(server.pid);
    try {
      await checkResponses(server.url, seeded.publishableKey, sampleFile);
      console.log('  sanity: sample keys validate as valid:true, a foreign fingerprint gets machine_mismatch, the ceiling answers');
      const scenarios = SCENARIOS.filter((x) => x.server === kind);
      results.push(...(await measure(scenarios, server.url, seeded.publishableKey, sampleFile, rss.window, () => warmPageCache(seeded.dbPath))));
      peakRssKb = Math.max(peakRssKb, rss.stop());
    } finally {
      rss.stop();
      const code = await server.stop();
      if (code !== 0) console.error(`The server exited with ${code}:\n${server.output().slice(-2000)}`);
    }
  }
  const report = renderReport(results, peakRssKb, settings);
  console.log(`\n${report.text}`);
  const json = { at: new Date().toISOString(), settings, cpus: cpus().length, bun: Bun.version, peakRssKb, results, targets: report.targets };
  writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(json, (k, v) => (k === 'raw' ? undefined : v), 2)}\n`);
  console.log(`Results written to ${join(BENCH_DIR, 'results.json')}`);
  const dirty = results.some((r) => r.load.non2xx > 0 || r.load.socketErrors > 0);
  if (dirty) console.error('Some responses were not 2xx or sockets failed: the figures are not trustworthy.');
  if (dirty || (process.env.BENCH_STRICT === '1' && report.targets.some((t) => !t.pass))) exitCode = 1;
  return exitCode;
}

async function measure(
  scenarios: Scenario[],
  url: string,
  apiKey: string,
  sampleFile: string,
  rssWindow: () => number,
  warmStore: () => void,
): Promise<ScenarioResult[]> {
  const runs = new Map<string, ScenarioResult[]>();
  for (let round = 1; round <= settings.rounds; round++) {
    for (const scenario of scenarios) {
      const base = { url, path: scenario.path, apiKey, sampleFile, connections: settings.connections, threads: settings.threads };
      process.stdout.write(`  ${scenario.name}${settings.rounds > 1 ? ` round ${round}` : ''}: warm-up ${settings.warmupSeconds} s`);
      warmStore();
      await runWrk({ ...base, seconds: settings.warmupSeconds });
      rssWindow();
      const loadBefore = loadavg()[0]!;
      process.stdout.write(`, measuring ${settings.seconds} s`);
      const load: LoadResult = await runWrk({ ...base, seconds: settings.seconds });
      const result = { scenario: scenario.name, path: scenario.path, load, peakRssKb: rssWindow(), loadAvg: [loadBefore, loadavg()[0]!] as [number, number] };
      console.log(` → ${Math.round(load.rps).toLocaleString('en')} req/s, p99 ${load.p99Ms.toFixed(2)} ms`);
      runs.set(scenario.name, [...(runs.get(scenario.name) ?? []), result]);
    }
  }
  // With several rounds, each scenario is represented by its median round (by requests/s).
  return scenarios.map((s) => {
    const sorted = [...runs.get(s.name)!].sort((a, b) => a.load.rps - b.load.rps);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}

process.exit(await main());
