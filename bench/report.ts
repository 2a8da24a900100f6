/**
 * The markdown table and the targets: issue 2's for SQLite (validate ≥ 70 % of the ceiling, p99 ≤ 10 ms,
 * RSS ≤ 250 MB) and issue 6's for PostgreSQL with one instance (≥ 35 % of the ceiling, p99 ≤ 15 ms).
 */
import { cpus } from 'node:os';
import type { LoadResult } from './wrk.ts';

export interface ScenarioResult {
  /** Stable name: ceiling, validate-sqlite, validate-postgres-2, status-postgres, checkout-sqlite, … */
  id: string;
  scenario: string;
  path: string;
  store: 'sqlite' | 'postgres';
  /** Server processes under load (their requests/s summed, the worse of their latencies). */
  instances: number;
  /** req/s for wrk's scenarios; checkouts/s for whole checkouts (latency: a whole checkout). */
  unit: 'req/s' | 'checkouts/s';
  load: LoadResult;
  /** Peak VmRSS during this scenario's measured window, kB, summed over its instances. */
  peakRssKb: number;
  /** 1-minute load average before and after the measured window. */
  loadAvg: [number, number];
}

export interface Target {
  name: string;
  value: string;
  pass: boolean;
}

export const TARGETS = {
  sqlite: { ratio: 0.7, p99Ms: 10, rssMb: 250 },
  postgres: { ratio: 0.35, p99Ms: 15 },
};

/** Table order: the ceiling, validate everywhere, then polling, then whole checkouts. */
const ROW_ORDER = [
  'ceiling',
  'validate-sqlite',
  'validate-sqlite-uncached',
  'validate-postgres',
  'validate-postgres-2',
  'status-sqlite',
  'status-postgres',
  'checkout-sqlite',
  'checkout-postgres',
];

const mb = (kb: number) => kb / 1024;

export function renderReport(
  results: ScenarioResult[],
  peakRssKb: number,
  settings: { seconds: number; connections: number; threads: number; licenses: number; checkoutWorkers: number },
): { text: string; targets: Target[] } {
  const byId = (id: string) => results.find((r) => r.id === id);
  const ceiling = byId('ceiling'); // absent when BENCH_ONLY left its phase out
  const ordered = [...results].sort((a, b) => ROW_ORDER.indexOf(a.id) - ROW_ORDER.indexOf(b.id));
  const rows = ordered.map((r) => [
    r.scenario,
    `${Math.round(r.load.rps).toLocaleString('en')}${r.unit === 'req/s' ? '' : ' checkouts/s'}`,
    r.load.p50Ms.toFixed(2),
    r.load.p99Ms.toFixed(2),
    r.unit === 'req/s' && ceiling ? `${((100 * r.load.rps) / ceiling.load.rps).toFixed(1)} %` : '',
    mb(r.peakRssKb).toFixed(1),
    `${r.loadAvg[0].toFixed(2)} → ${r.loadAvg[1].toFixed(2)}`,
    String(r.load.non2xx + r.load.socketErrors),
  ]);
  const table = [
    '| scenario | req/s | p50 ms | p99 ms | % of ceiling | peak RSS MB | load avg (1 min) | errors |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
  const targets: Target[] = [...targetsFor(byId('validate-sqlite'), ceiling, TARGETS.sqlite, 'SQLite')];
  targets.push({ name: `server RSS ≤ ${TARGETS.sqlite.rssMb} MB (peak of one process, whole run)`, value: `${mb(peakRssKb).toFixed(1)} MB`, pass: mb(peakRssKb) <= TARGETS.sqlite.rssMb });
  const postgres = byId('validate-postgres');
  if (postgres) targets.push(...targetsFor(postgres, ceiling, TARGETS.postgres, 'PostgreSQL (one instance)'));
  const text = [
    `${settings.licenses.toLocaleString('en')} bound licenses · wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s ` +
      `(two instances: two wrk processes, -c${Math.round(settings.connections / 2)} each) · checkouts: ${settings.checkoutWorkers} concurrent buyers · ` +
      `${cpus().length} cores shared by the load generators, the servers and PostgreSQL · Bun ${Bun.version}`,
    '',
    ...table,
    '',
    '| target | measured | |',
    '|---|---:|---|',
    ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.pass ? 'PASS' : 'MISS'} |`),
  ].join('\n');
  return { text, targets };
}

function targetsFor(validate: ScenarioResult | undefined, ceiling: ScenarioResult | undefined, target: { ratio: number; p99Ms: number }, store: string): Target[] {
  if (!validate || !ceiling) return [];
  const ratio = validate.load.rps / ceiling.load.rps;
  return [
    { name: `${store} validate ≥ ${target.ratio * 100} % of the ceiling's req/s`, value: `${(100 * ratio).toFixed(1)} %`, pass: ratio >= target.ratio },
    { name: `${store} validate p99 ≤ ${target.p99Ms} ms`, value: `${validate.load.p99Ms.toFixed(2)} ms`, pass: validate.load.p99Ms <= target.p99Ms },
  ];
}
