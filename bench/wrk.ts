/** Runs wrk with bench/post-random-key.lua and reads the line its `done` hook prints. */
import { spawn } from 'bun';
import { join } from 'node:path';

const SCRIPT = join(import.meta.dir, 'post-random-key.lua');

export interface LoadOptions {
  url: string;
  path: string;
  apiKey: string;
  sampleFile: string;
  seconds: number;
  connections: number;
  threads: number;
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
      '-s', SCRIPT,
      `${options.url}${options.path}`,
    ],
    {
      env: { ...process.env, BENCH_SAMPLE: options.sampleFile, BENCH_API_KEY: options.apiKey, BENCH_PATH: options.path },
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
