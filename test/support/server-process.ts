import { spawn, type Subprocess } from 'bun';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

export interface Spawned {
  url: string;
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
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
}

/** The real service (`bun run src/main.ts`) on a free port, without waiting for it to be healthy. */
export async function spawnService(env: Record<string, string>, options: SpawnOptions = {}): Promise<Spawned> {
  const port = await freePort();
  const base = options.inheritEnv === false ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  const proc = spawn(['bun', 'run', join(ROOT, options.entry ?? 'src/main.ts')], {
    cwd: options.cwd ?? ROOT,
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) out += decoder.decode(chunk);
  };
  const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
  const exited = proc.exited.then(async (code) => (await drained, code));
  return { url: `http://127.0.0.1:${port}`, proc, output: () => out, exited, kill: (signal = 'SIGTERM') => proc.kill(signal) };
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
