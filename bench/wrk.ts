/** Runs wrk with one of the bench's Lua scripts and reads the line its `done` hook prints. */
import { spawn } from 'bun';
import { join } from 'node:path';

export const SCRIPTS = {
  /** POST a validation body for a random `<licenseKey> <fingerprint>` line. */
  postKey: join(import.meta.dir, 'post-random-key.lua'),
  /** GET a random path line (checkout-status polling). */
  getPath: join(import.meta.dir, 'get-random-path.lua'),
};

export interface LoadOptions {
  url: string;
  path: string;
  apiKey: string;
  sampleFile: string;
  seconds: number;
  connections: number;
  threads: number;
  /** SCRIPTS.postKey unless told. */
  script?: string;
  /** SCRIPTS.getPath only: send apiKey in X-API-Key (the seller routes of the lists benchmark). */
  getWithKey?: boolean;
  /** SCRIPTS.postKey only: a fresh Licensing-Nonce per request, so every answer is signed. */
  nonce?: boolean;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  socketErrors: number;
  raw: string;
}

export async function wrkAvailable(): Promise<boolean> {
  try {
    const proc = spawn(['wrk', '--version'], { stdout: 'pipe', stderr: 'pipe' });
    await proc.exited;
    return true;
  } catch {
    return false;
  }
}

export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const proc = spawn(
    [
      'wrk',
      `-t${options.threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--timeout', '10s',
      '--latency',
      '-s', options.script ?? SCRIPTS.postKey,
      `${options.url}${options.path}`,
    ],
    {
      env: { ...process.env, BENCH_SAMPLE: options.sampleFile, BENCH_API_KEY: options.apiKey, BENCH_PATH: options.path, BENCH_GET_WITH_KEY: options.getWithKey ? '1' : '0', BENCH_NONCE: options.nonce ? '1' : '0' },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${stdout}\n${stderr}`);
  return parseWrk(stdout);
}

export function parseWrk(stdout: string): LoadResult {
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`wrk printed no BENCH_RESULT line:\n${stdout}`);
  const fields = Object.fromEntries(
    line
      .slice('BENCH_RESULT '.length)
      .split(' ')
      .map((pair) => pair.split('=') as [string, string])
      .map(([k, v]) => [k, Number(v)]),
  ) as Record<string, number>;
  const seconds = fields.duration_us! / 1e6;
  return {
    requests: fields.requests!,
    seconds,
    rps: fields.requests! / seconds,
    p50Ms: fields.p50_us! / 1000,
    p99Ms: fields.p99_us! / 1000,
    maxMs: fields.max_us! / 1000,
    non2xx: fields.non2xx!,
    socketErrors: fields.connect! + fields.read! + fields.write! + fields.timeout!,
    raw: stdout,
  };
}

/** Several wrk processes at once (one per instance), read as one load: summed req/s, the worse latencies. */
export async function runWrkParallel(loads: LoadOptions[]): Promise<LoadResult> {
  return combineLoads(await Promise.all(loads.map(runWrk)));
}

export function combineLoads(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0]!;
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const worst = (pick: (r: LoadResult) => number) => Math.max(...results.map(pick));
  return {
    requests: sum((r) => r.requests),
    seconds: worst((r) => r.seconds),
    rps: sum((r) => r.rps),
    p50Ms: worst((r) => r.p50Ms),
    p99Ms: worst((r) => r.p99Ms),
    maxMs: worst((r) => r.maxMs),
    non2xx: sum((r) => r.non2xx),
    socketErrors: sum((r) => r.socketErrors),
    raw: results.map((r) => r.raw).join('\n'),
  };
}
