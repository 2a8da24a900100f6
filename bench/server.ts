/** The real service process under load, and its memory as the kernel reports it. */
import { spawn, type Subprocess } from 'bun';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');

export interface BenchServer {
  url: string;
  pid: number;
  output: () => string;
  stop: () => Promise<number>;
}

export async function startServer(env: Record<string, string>, entry = 'src/main.ts'): Promise<BenchServer> {
  const port = await freePort();
  const proc: Subprocess<'ignore', 'pipe', 'pipe'> = spawn(['bun', 'run', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdin: 'ignore',
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
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}:\n${out}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /v1/health within 60 s:\n${out}`);
    try {
      if ((await fetch(`${url}/v1/health`)).ok) break;
    } catch {}
    await Bun.sleep(50);
  }
  return {
    url,
    pid: proc.pid,
    output: () => out,
    stop: async () => {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      const code = await proc.exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

/** kB figures of /proc/<pid>/status: VmRSS (now) and VmHWM (the kernel's high-water mark). */
export function memoryOf(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return null;
  }
}

/** Polls VmRSS every `everyMs`; `window()` starts a new peak, so each scenario gets its own. */
export function sampleRss(pid: number, everyMs = 100) {
  let windowPeak = 0;
  let overallPeak = 0;
  const take = () => {
    const rss = memoryOf(pid)?.rssKb ?? 0;
    windowPeak = Math.max(windowPeak, rss);
    overallPeak = Math.max(overallPeak, rss);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    /** Peak since the previous call, in kB; the next window starts now. */
    window: () => {
      take();
      const peak = windowPeak;
      windowPeak = 0;
      return peak;
    },
    stop: () => {
      clearInterval(timer);
      take();
      return overallPeak;
    },
  };
}
