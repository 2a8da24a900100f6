import { spawn, SQL, type Subprocess } from 'bun';
import { join } from 'node:path';
import { TEST_POSTGRES_URL } from './postgres-url.ts';

const ROOT = join(import.meta.dir, '..', '..');

export interface Spawned {
  url: string;
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** What it printed on stdout alone: the JSON log lines. */
  stdout: () => string;
  /** Resolves with the exit code once its output is fully read. */
  exited: Promise<number>;
  kill: (signal?: NodeJS.Signals) => void;
}

export interface RunningServer extends Spawned {
  /** Sends the signal and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number>;
}

export interface SpawnOptions {
  cwd?: string;
  /** Start from the parent's environment (default) or from PATH and HOME alone, so nothing leaks in. */
  inheritEnv?: boolean;
  /** Another entry point than src/main.ts (relative to the project root). */
  entry?: string;
  /** Another copy of the project than this one (the default working directory too). */
  root?: string;
}

/**
 * Every test talks to its server from 127.0.0.1, as thousands of clients would: the per-address
 * limits are lifted unless a test sets them (test/security/limits does).
 */
export const LIFTED_ADDRESS_LIMITS: Record<string, string> = {
  VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE: '0',
  SIGNUP_RATE_LIMIT_PER_HOUR: '0',
  LOGIN_RATE_LIMIT_PER_HOUR: '0',
  CHECKOUT_RATE_LIMIT_PER_MINUTE: '0',
  TRIAL_RATE_LIMIT_PER_HOUR: '0',
};

/** The real service (`bun run src/main.ts`) on a free port, without waiting for it to be healthy. */
export async function spawnService(env: Record<string, string>, options: SpawnOptions = {}): Promise<Spawned> {
  const port = await freePort();
  const base = options.inheritEnv === false ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  const root = options.root ?? ROOT;
  const proc = spawn(['bun', 'run', join(root, options.entry ?? 'src/main.ts')], {
    cwd: options.cwd ?? root,
    // No drain period on SIGTERM unless a test sets one: tests stop servers by the hundred.
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DRAIN_SECONDS: '0', ...LIFTED_ADDRESS_LIMITS, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  let stdout = '';
  const drain = async (stream: ReadableStream<Uint8Array>, isStdout: boolean) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      out += text;
      if (isStdout) stdout += text;
    }
  };
  const drained = Promise.all([drain(proc.stdout, true), drain(proc.stderr, false)]);
  const exited = proc.exited.then(async (code) => (await drained, code));
  return { url: `http://127.0.0.1:${port}`, proc, output: () => out, stdout: () => stdout, exited, kill: (signal = 'SIGTERM') => proc.kill(signal) };
}

/** Waits until /v1/health answers 200; fails if the process exits first. */
export async function untilHealthy(service: Spawned, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.proc.exitCode !== null) throw new Error(`server exited with ${service.proc.exitCode}: ${service.output()}`);
    try {
      if ((await fetch(`${service.url}/v1/health`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`server not healthy in time: ${service.output()}`);
}

/** The real service in the project root with LOG_LEVEL=info, ready when /v1/health answers. */
export async function startServer(env: Record<string, string> = {}, options: SpawnOptions = {}): Promise<RunningServer> {
  const service = await spawnService({ LOG_LEVEL: 'info', ...env }, options);
  await untilHealthy(service);
  return {
    ...service,
    stop: async (signal = 'SIGTERM') => {
      service.kill(signal);
      return service.exited;
    },
  };
}

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

export interface PostgresSchema {
  /** `t_<random>`: no other run uses it. */
  name: string;
  /** DATABASE_URL selecting this schema; the service creates and migrates it on start-up. */
  databaseUrl: string;
  /** Reads from the schema's tables, for assertions on what the service stored. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** DROP SCHEMA … CASCADE, then closes the connection. */
  drop(): Promise<void>;
}

/** A schema name no other run uses, and a connection to read it and drop it afterwards. */
export function freshPostgresSchema(): PostgresSchema {
  const name = `t_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('schema', name);
  let sql: SQL | undefined;
  const connection = () => (sql ??= new SQL({ url: TEST_POSTGRES_URL, max: 2, connection: { search_path: name } }));
  return {
    name,
    databaseUrl: url.toString(),
    query: async <T,>(text: string, params: unknown[] = []) => [...(await connection().unsafe(text, params))] as T[],
    drop: async () => {
      try {
        await connection().unsafe(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await sql?.close();
      }
    },
  };
}

/** 32 random bytes in base64: a MASTER_KEY. */
export const randomMasterKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');

export interface Cluster {
  instances: RunningServer[];
  /** The next instance's URL, round-robin: requests spread across the service. */
  next: () => string;
  /** Stops every instance still running. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/** `count` server processes started at the same moment with the same env (one database, one MASTER_KEY). */
export async function startCluster(count: number, env: Record<string, string>, options: SpawnOptions = {}): Promise<Cluster> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env, options)));
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    await Promise.all(instances.filter((i) => i.proc.exitCode === null).map((i) => i.stop(signal)));
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop('SIGKILL');
    throw (failed as PromiseRejectedResult).reason;
  }
  let turn = 0;
  return { instances, next: () => instances[turn++ % instances.length]!.url, stop };
}

/** JSON calls to a running server's API: `x-api-key` when a key is given, the answer's status and parsed body. */
export function apiOf(server: () => { url: string }) {
  return async (method: string, path: string, options: { key?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.key ? { 'x-api-key': options.key } : {}) };
    const response = await fetch(`${server().url}/v1${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: response.status, body: await response.json() };
  };
}
