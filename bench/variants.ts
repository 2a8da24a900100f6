/**
 * `bun run bench/variants.ts`: what would the hot path gain from each candidate change? Starts
 * bench/variant-server.ts once per variant on the seeded store (run `bun run bench` first) and
 * loads validate with wrk exactly like the benchmark. BENCH_SECONDS (6), BENCH_ROUNDS (1),
 * BENCH_VARIANTS (names, comma). Each row is the median round by req/s.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, ISSUER, warmPageCache } from './seed.ts';
import { sampleRss, startServer } from './server.ts';
import { runWrk } from './wrk.ts';

const VARIANTS: { name: string; env: Record<string, string>; path?: string }[] = [
  { name: 'ceiling (reference)', env: {}, path: '/v1/bench/ceiling' },
  { name: 'as is', env: {} },
  { name: 'API key memoized', env: { BENCH_V_APIKEY_CACHE: '1' } },
  { name: 'license select via raw bun:sqlite', env: { BENCH_V_RAW_SELECT: '1' } },
  { name: 'cache_size 64 MiB', env: { BENCH_V_CACHE_KB: '65536' } },
  { name: 'mmap_size 1 GiB', env: { BENCH_V_MMAP_MB: '1024' } },
  { name: 'lean route (no derive, no response schema)', env: { BENCH_V_LEAN: '1' }, path: '/v1/bench/validate-lean' },
  { name: 'locking_mode EXCLUSIVE', env: { BENCH_V_EXCLUSIVE: '1' } },
  { name: 'cache_size 64 MiB + EXCLUSIVE', env: { BENCH_V_CACHE_KB: '65536', BENCH_V_EXCLUSIVE: '1' } },
  { name: 'API key memoized + cache_size 64 MiB + EXCLUSIVE', env: { BENCH_V_APIKEY_CACHE: '1', BENCH_V_CACHE_KB: '65536', BENCH_V_EXCLUSIVE: '1' } },
  { name: 'license state memoized', env: { BENCH_V_STATE_CACHE: '1' } },
  { name: 'API key + license state memoized', env: { BENCH_V_APIKEY_CACHE: '1', BENCH_V_STATE_CACHE: '1' } },
  {
    name: 'API key + license state memoized + lean route',
    env: { BENCH_V_APIKEY_CACHE: '1', BENCH_V_STATE_CACHE: '1', BENCH_V_LEAN: '1' },
    path: '/v1/bench/validate-lean',
  },
  {
    name: 'API key memoized + cache_size 64 MiB + lean route',
    env: { BENCH_V_APIKEY_CACHE: '1', BENCH_V_CACHE_KB: '65536', BENCH_V_LEAN: '1' },
    path: '/v1/bench/validate-lean',
  },
];

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const only = process.env.BENCH_VARIANTS?.split(',').map((s) => s.trim());
const meta = JSON.parse(readFileSync(join(BENCH_DIR, 'seed.json'), 'utf8')) as { masterKey: string; publishableKey: string };
const sampleFile = join(BENCH_DIR, 'sample.txt');

const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const chosen = VARIANTS.filter((v) => !only || only.includes(v.name));
const rows = new Map<string, string[][]>();
for (let round = 1; round <= rounds; round++) {
  for (const variant of chosen) {
    const row = await measure(variant);
    console.error(`  round ${round}: ${row.join(' | ')}`);
    rows.set(variant.name, [...(rows.get(variant.name) ?? []), row]);
  }
}
console.log('| variant | req/s | p50 ms | p99 ms | peak RSS MB | load avg |\n|---|---:|---:|---:|---:|---|');
for (const variant of chosen) {
  const sorted = rows.get(variant.name)!.sort((a, b) => Number(a[1]!.replace(/,/g, '')) - Number(b[1]!.replace(/,/g, '')));
  console.log(`| ${sorted[Math.floor(sorted.length / 2)]!.join(' | ')} |`);
}

async function measure(variant: (typeof VARIANTS)[number]): Promise<string[]> {
  const dbPath = join(BENCH_DIR, 'bench.db');
  warmPageCache(dbPath);
  const server = await startServer(
    { DATABASE_URL: `sqlite:${dbPath}`, MASTER_KEY: meta.masterKey, PUBLIC_BASE_URL: ISSUER, ...variant.env },
    'bench/variant-server.ts',
  );
  const rss = sampleRss(server.pid);
  try {
    const base = { url: server.url, path: variant.path ?? '/v1/licenses/validate', apiKey: meta.publishableKey, sampleFile, connections: 50, threads: 1 };
    await runWrk({ ...base, seconds: 3 });
    const load = loadavg()[0]!.toFixed(2);
    const r = await runWrk({ ...base, seconds });
    if (r.non2xx || r.socketErrors) throw new Error(`${variant.name}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors`);
    return [variant.name, Math.round(r.rps).toLocaleString('en'), r.p50Ms.toFixed(2), r.p99Ms.toFixed(2), (rss.stop() / 1024).toFixed(1), load];
  } finally {
    rss.stop();
    await server.stop();
  }
}
