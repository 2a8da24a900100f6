/** The markdown table and the targets of issue 2: ≥ 70 % of the ceiling, p99 ≤ 10 ms, RSS ≤ 250 MB. */
import { cpus } from 'node:os';
import type { LoadResult } from './wrk.ts';

export interface ScenarioResult {
  scenario: string;
  path: string;
  load: LoadResult;
  /** Peak VmRSS of the server during this scenario's measured window, kB. */
  peakRssKb: number;
  /** 1-minute load average before and after the measured window. */
  loadAvg: [number, number];
}

export interface Target {
  name: string;
  value: string;
  pass: boolean;
}

export const TARGETS = { ratio: 0.7, p99Ms: 10, rssMb: 250 };

const mb = (kb: number) => kb / 1024;

export function renderReport(
  results: ScenarioResult[],
  peakRssKb: number,
  settings: { seconds: number; connections: number; threads: number; licenses: number },
): { text: string; targets: Target[] } {
  const ceiling = results.find((r) => r.path === '/v1/bench/ceiling')!;
  const validate = results.find((r) => r.path === '/v1/licenses/validate')!;
  const rows = results.map((r) => [
    r.scenario,
    Math.round(r.load.rps).toLocaleString('en'),
    r.load.p50Ms.toFixed(2),
    r.load.p99Ms.toFixed(2),
    `${((100 * r.load.rps) / ceiling.load.rps).toFixed(1)} %`,
    mb(r.peakRssKb).toFixed(1),
    `${r.loadAvg[0].toFixed(2)} → ${r.loadAvg[1].toFixed(2)}`,
    String(r.load.non2xx + r.load.socketErrors),
  ]);
  const table = [
    '| scenario | req/s | p50 ms | p99 ms | % of ceiling | peak RSS MB | load avg (1 min) | errors |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
  const ratio = validate.load.rps / ceiling.load.rps;
  const targets: Target[] = [
    { name: `validate ≥ ${TARGETS.ratio * 100} % of the ceiling's req/s`, value: `${(100 * ratio).toFixed(1)} %`, pass: ratio >= TARGETS.ratio },
    { name: `validate p99 ≤ ${TARGETS.p99Ms} ms`, value: `${validate.load.p99Ms.toFixed(2)} ms`, pass: validate.load.p99Ms <= TARGETS.p99Ms },
    { name: `server RSS ≤ ${TARGETS.rssMb} MB (peak, whole run)`, value: `${mb(peakRssKb).toFixed(1)} MB`, pass: mb(peakRssKb) <= TARGETS.rssMb },
  ];
  const text = [
    `${settings.licenses.toLocaleString('en')} bound licenses · wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s · ` +
      `${cpus().length} cores shared by wrk and the server · Bun ${Bun.version}`,
    '',
    ...table,
    '',
    '| target | measured | |',
    '|---|---:|---|',
    ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.pass ? 'PASS' : 'MISS'} |`),
  ].join('\n');
  return { text, targets };
}
