import { spawn, type Subprocess } from 'bun';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');

export interface RunningServer {
  url: string;
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number>;
}

/** The real service (`bun run src/main.ts`) on a free port, ready when /v1/health answers. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const proc = spawn(['bun', 'run', join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) out += decoder.decode(chunk);
  };
  void drain(proc.stdout);
  void drain(proc.stderr);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${out}`);
    try {
      if ((await fetch(`${url}/v1/health`)).ok) break;
    } catch {}
    await Bun.sleep(50);
  }
  return {
    url,
    proc,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      proc.kill(signal);
      return proc.exited;
    },
  };
}

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}
