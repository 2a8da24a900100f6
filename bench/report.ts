/**
 * The markdown table and the targets (issues 2, 6 and 19): SQLite validate signed ≥ 70 % of the
 * signed ceiling and unsigned ≥ 60 % of the bare one, p99 ≤ 10 ms, RSS ≤ 250 MB; PostgreSQL with one
 * instance, unsigned, ≥ 35 % of the bare ceiling, p99 ≤ 15 ms.
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
  /** validate rows: the ceiling they are compared with (bare, or signed: the same route plus one signature). */
  ceiling?: 'bare' | 'signed';
}

export interface Target {
  name: string;
  value: string;
  pass: boolean;
}

type Ceiling = 'bare' | 'signed';
interface ValidateTarget {
  id: string;
  label: string;
  ceiling: Ceiling;
  ratio: number;
  p99Ms: number;
}

export const RSS_TARGET_MB = 250;
export const TARGETS: ValidateTarget[] = [
  { id: 'validate-sqlite-signed', label: 'SQLite signed validate', ceiling: 'signed', ratio: 0.7, p99Ms: 10 },
  { id: 'validate-sqlite', label: 'SQLite unsigned validate', ceiling: 'bare', ratio: 0.6, p99Ms: 10 },
  { id: 'validate-postgres', label: 'PostgreSQL (one instance) unsigned validate', ceiling: 'bare', ratio: 0.35, p99Ms: 15 },
];

const CEILING_ID: Record<Ceiling, string> = { bare: 'ceiling', signed: 'ceiling-signed' };

/** Table order: the ceiling, validate everywhere, then polling, then whole checkouts. */
const ROW_ORDER = [
  'ceiling',
  'ceiling-signed',
  'validate-sqlite-signed',
  'validate-sqlite',
  'validate-sqlite-uncached',
  'validate-postgres-signed',
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
  // Absent when BENCH_ONLY left their phase out.
  const ceilingOf = (kind: Ceiling | undefined) => (kind ? byId(CEILING_ID[kind]) : undefined);
  const ordered = [...results].sort((a, b) => ROW_ORDER.indexOf(a.id) - ROW_ORDER.indexOf(b.id));
  const rows = ordered.map((r) => {
    const ceiling = ceilingOf(r.ceiling);
    return [
      r.scenario,
      `${Math.round(r.load.rps).toLocaleString('en')}${r.unit === 'req/s' ? '' : ' checkouts/s'}`,
      r.load.p50Ms.toFixed(2),
      r.load.p99Ms.toFixed(2),
      ceiling ? `${r.ceiling} ${Math.round(ceiling.load.rps).toLocaleString('en')}` : '',
      ceiling ? `${((100 * r.load.rps) / ceiling.load.rps).toFixed(1)} %` : '',
      mb(r.peakRssKb).toFixed(1),
      `${r.loadAvg[0].toFixed(2)} → ${r.loadAvg[1].toFixed(2)}`,
      String(r.load.non2xx + r.load.socketErrors),
    ];
  });
  const table = [
    '| scenario | req/s | p50 ms | p99 ms | compared with | % of it | peak RSS MB | load avg (1 min) | errors |',
    '|---|---:|---:|---:|---|---:|---:|---|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
  const targets: Target[] = TARGETS.flatMap((t) => targetsFor(byId(t.id), ceilingOf(t.ceiling), t));
  targets.push({ name: `server RSS ≤ ${RSS_TARGET_MB} MB (peak of one process, whole run)`, value: `${mb(peakRssKb).toFixed(1)} MB`, pass: mb(peakRssKb) <= RSS_TARGET_MB });
  const [bare, signed] = [ceilingOf('bare'), ceilingOf('signed')];
  const ceilings = bare && signed
    ? `Ceilings: bare ${Math.round(bare.load.rps).toLocaleString('en')} req/s, signed ${Math.round(signed.load.rps).toLocaleString('en')} req/s (${((100 * signed.load.rps) / bare.load.rps).toFixed(1)} % of bare).`
    : '';
  const text = [
    `${settings.licenses.toLocaleString('en')} bound licenses · wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s ` +
      `(two instances: two wrk processes, -c${Math.round(settings.connections / 2)} each) · checkouts: ${settings.checkoutWorkers} concurrent buyers · ` +
      `${cpus().length} cores shared by the load generators, the servers and PostgreSQL · Bun ${Bun.version}`,
    ...(ceilings ? ['', ceilings] : []),
    '',
    ...table,
    '',
    '| target | measured | |',
    '|---|---:|---|',
    ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.pass ? 'PASS' : 'MISS'} |`),
  ].join('\n');
  return { text, targets };
}

function targetsFor(validate: ScenarioResult | undefined, ceiling: ScenarioResult | undefined, target: ValidateTarget): Target[] {
  if (!validate || !ceiling) return [];
  const ratio = validate.load.rps / ceiling.load.rps;
  return [
    { name: `${target.label} ≥ ${target.ratio * 100} % of the ${target.ceiling} ceiling's req/s`, value: `${(100 * ratio).toFixed(1)} %`, pass: ratio >= target.ratio },
    { name: `${target.label} p99 ≤ ${target.p99Ms} ms`, value: `${validate.load.p99Ms.toFixed(2)} ms`, pass: validate.load.p99Ms <= target.p99Ms },
  ];
}
