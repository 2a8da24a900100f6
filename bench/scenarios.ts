/**
 * What `bun run bench` measures, grouped in phases: a phase is one server configuration (store,
 * number of instances, env) started once, checked, then loaded scenario after scenario.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createPendingSessions, prepareSeller, runCheckoutLoad, type CheckoutSeller } from './checkout-load.ts';
import { checkResponses, validateEachKeyOnce } from './checks.ts';
import type { ScenarioResult } from './report.ts';
import { sampleRss, startServer, type BenchServer } from './server.ts';
import { runWrkParallel, SCRIPTS, type LoadResult } from './wrk.ts';

export type StoreKind = 'sqlite' | 'postgres';

export interface Scenario {
  /** Stable name in results.json and for the targets. */
  id: string;
  name: string;
  path: string;
  /** validate: wrk posting sample keys; status: wrk polling pending sessions; checkout: whole checkouts from TypeScript. */
  load: 'validate' | 'status' | 'checkout';
  /** validate loads: a fresh Licensing-Nonce per request, so every answer is signed (what the client library sends). */
  nonce?: boolean;
  /** The ceiling a validate row is compared with: the bare one, or the one that also signs. */
  ceiling?: 'bare' | 'signed';
}

export interface Phase {
  label: string;
  store: StoreKind;
  instances: number;
  env: Record<string, string>;
  scenarios: Scenario[];
}

export interface PhaseContext {
  settings: { seconds: number; warmupSeconds: number; connections: number; threads: number; rounds: number; pendingSessions: number; checkoutWorkers: number };
  /** The seed's publishable key, for validate. */
  apiKey: string;
  /** `<licenseKey> <fingerprint>` lines. */
  sampleFile: string;
  benchDir: string;
  /** Reads the store into the OS page cache before each scenario. */
  warm: (store: StoreKind) => Promise<unknown>;
}

const VALIDATE = '/v1/licenses/validate';
const STATUS = '/v1/checkout/status/:sessionId';
const CHECKOUT = 'init → pay → status';

/**
 * The ceilings and SQLite first (as in issue 2), then PostgreSQL with one and two instances. Validate
 * runs signed (a fresh nonce per request, as the client library) and unsigned (no nonce, no Accept:
 * nobody asked to verify it, docs/signed-answers.md), each compared with its ceiling.
 */
export function phases(sqliteUrl: string, postgresUrl: string | null): Phase[] {
  const list: Phase[] = [
    {
      label: 'SQLite',
      store: 'sqlite',
      instances: 1,
      env: { DATABASE_URL: sqliteUrl },
      scenarios: [
        { id: 'ceiling', name: 'bare ceiling (POST /v1/bench/ceiling)', path: '/v1/bench/ceiling', load: 'validate' },
        { id: 'ceiling-signed', name: 'signed ceiling (POST /v1/bench/ceiling-signed, one Ed25519 signature, fresh nonce)', path: '/v1/bench/ceiling-signed', load: 'validate', nonce: true },
        { id: 'validate-sqlite-signed', name: 'validate signed (fresh Licensing-Nonce), SQLite', path: VALIDATE, load: 'validate', nonce: true, ceiling: 'signed' },
        { id: 'validate-sqlite', name: 'validate unsigned (no nonce, no Accept), SQLite', path: VALIDATE, load: 'validate', ceiling: 'bare' },
        { id: 'status-sqlite', name: 'checkout-status polling, SQLite', path: STATUS, load: 'status' },
        { id: 'checkout-sqlite', name: 'checkouts end to end, SQLite (completions/s)', path: CHECKOUT, load: 'checkout' },
      ],
    },
    {
      label: 'SQLite, license cache off',
      store: 'sqlite',
      instances: 1,
      env: { DATABASE_URL: sqliteUrl, LICENSE_CACHE_SIZE: '0' },
      scenarios: [{ id: 'validate-sqlite-uncached', name: 'validate unsigned, SQLite, license cache off (every read from SQLite)', path: VALIDATE, load: 'validate', ceiling: 'bare' }],
    },
  ];
  if (!postgresUrl) return list;
  return [
    ...list,
    {
      label: 'PostgreSQL, one instance',
      store: 'postgres',
      instances: 1,
      env: { DATABASE_URL: postgresUrl },
      scenarios: [
        { id: 'validate-postgres-signed', name: 'validate signed (fresh Licensing-Nonce), PostgreSQL, one instance', path: VALIDATE, load: 'validate', nonce: true, ceiling: 'signed' },
        { id: 'validate-postgres', name: 'validate unsigned, PostgreSQL, one instance', path: VALIDATE, load: 'validate', ceiling: 'bare' },
        { id: 'status-postgres', name: 'checkout-status polling, PostgreSQL', path: STATUS, load: 'status' },
        { id: 'checkout-postgres', name: 'checkouts end to end, PostgreSQL (completions/s)', path: CHECKOUT, load: 'checkout' },
      ],
    },
    {
      label: 'PostgreSQL, two instances',
      store: 'postgres',
      instances: 2,
      env: { DATABASE_URL: postgresUrl },
      scenarios: [{ id: 'validate-postgres-2', name: 'validate signed, PostgreSQL, two instances (one wrk each)', path: VALIDATE, load: 'validate', nonce: true, ceiling: 'signed' }],
    },
  ];
}

/** Starts the phase's servers, checks them, loads every scenario, stops them. Peak RSS: of one process. */
export async function runPhase(phase: Phase, env: Record<string, string>, ctx: PhaseContext): Promise<{ results: ScenarioResult[]; peakRssKb: number }> {
  const started = await Promise.allSettled(Array.from({ length: phase.instances }, () => startServer({ ...env, ...phase.env })));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const samplers = servers.map((s) => sampleRss(s.pid));
  let peakRssKb = 0;
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    console.log(`${phase.label}: ${servers.map((s) => `pid ${s.pid} at ${s.url}`).join(', ')}`);
    for (const server of servers) await checkResponses(server.url, ctx.apiKey, ctx.sampleFile);
    console.log('  sanity: sample keys validate as valid:true, a foreign fingerprint gets machine_mismatch, a nonce gets a signature and no nonce none, both ceilings answer');
    if (holdsLicenseCache(phase)) {
      const warmedAt = performance.now();
      for (const server of servers) await validateEachKeyOnce(server.url, ctx.apiKey, ctx.sampleFile);
      console.log(`  every sample key validated once (the license cache's steady state) in ${((performance.now() - warmedAt) / 1000).toFixed(1)} s`);
    }
    const loads = await prepareLoads(phase, servers, ctx);
    const window = () => samplers.reduce((total, s) => total + s.window(), 0);
    const results = await measure(phase, loads, ctx, window);
    peakRssKb = Math.max(...samplers.map((s) => s.stop()));
    return { results, peakRssKb };
  } finally {
    samplers.forEach((s) => s.stop());
    for (const server of servers) {
      const code = await server.stop();
      if (code !== 0) console.error(`The server exited with ${code}:\n${server.output().slice(-2000)}`);
    }
  }
}

/** SQLite keeps validated licenses in memory (LICENSE_CACHE_SIZE, on unless the phase turns it off); PostgreSQL has no such cache. */
function holdsLicenseCache(phase: Phase): boolean {
  return phase.store === 'sqlite' && phase.env.LICENSE_CACHE_SIZE !== '0';
}

type LoadFor = (scenario: Scenario, seconds: number) => Promise<LoadResult>;

/** The checkout seller and pending sessions are made through the API before any load. */
async function prepareLoads(phase: Phase, servers: BenchServer[], ctx: PhaseContext): Promise<LoadFor> {
  const { settings } = ctx;
  let seller: CheckoutSeller | undefined;
  const sessionsFile = join(ctx.benchDir, `sessions-${phase.store}.txt`);
  if (phase.scenarios.some((s) => s.load !== 'validate')) {
    const madeAt = performance.now();
    seller = await prepareSeller(servers[0]!.url);
    if (phase.scenarios.some((s) => s.load === 'status')) {
      await createPendingSessions(servers[0]!.url, seller, settings.pendingSessions, sessionsFile);
      console.log(`  ${settings.pendingSessions.toLocaleString('en')} pending checkout sessions created through the API in ${((performance.now() - madeAt) / 1000).toFixed(1)} s`);
    }
  }
  return (scenario, seconds) => {
    if (scenario.load === 'checkout') return runCheckoutLoad({ url: servers[0]!.url, seller: seller!, workers: settings.checkoutWorkers, seconds });
    const status = scenario.load === 'status';
    return runWrkParallel(
      servers.map((server) => ({
        url: server.url,
        path: scenario.path,
        apiKey: ctx.apiKey,
        sampleFile: status ? sessionsFile : ctx.sampleFile,
        script: status ? SCRIPTS.getPath : SCRIPTS.postKey,
        nonce: scenario.nonce === true,
        seconds,
        // The connections are shared out: two instances get 25 each of the 50.
        connections: Math.max(1, Math.round(settings.connections / servers.length)),
        threads: settings.threads,
      })),
    );
  };
}

async function measure(phase: Phase, loadFor: LoadFor, ctx: PhaseContext, rssWindow: () => number): Promise<ScenarioResult[]> {
  const { settings } = ctx;
  const runs = new Map<string, ScenarioResult[]>();
  for (let round = 1; round <= settings.rounds; round++) {
    for (const scenario of phase.scenarios) {
      process.stdout.write(`  ${scenario.name}${settings.rounds > 1 ? ` round ${round}` : ''}: warm-up ${settings.warmupSeconds} s`);
      await ctx.warm(phase.store);
      await loadFor(scenario, settings.warmupSeconds);
      rssWindow();
      const loadBefore = loadavg()[0]!;
      process.stdout.write(`, measuring ${settings.seconds} s`);
      const load = await loadFor(scenario, settings.seconds);
      const result: ScenarioResult = {
        id: scenario.id,
        scenario: scenario.name,
        path: scenario.path,
        store: phase.store,
        instances: phase.instances,
        unit: scenario.load === 'checkout' ? 'checkouts/s' : 'req/s',
        ceiling: scenario.ceiling,
        load,
        peakRssKb: rssWindow(),
        loadAvg: [loadBefore, loadavg()[0]!],
      };
      console.log(` → ${Math.round(load.rps).toLocaleString('en')} ${result.unit}, p99 ${load.p99Ms.toFixed(2)} ms`);
      runs.set(scenario.id, [...(runs.get(scenario.id) ?? []), result]);
    }
  }
  // With several rounds, each scenario is represented by its median round (by throughput).
  return phase.scenarios.map((s) => {
    const sorted = [...runs.get(s.id)!].sort((a, b) => a.load.rps - b.load.rps);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}
