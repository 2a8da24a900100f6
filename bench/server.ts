/** The real service process under load, and its memory as the kernel reports it. */
import { readFileSync } from 'node:fs';
import { spawnService, untilHealthy } from '../test/support/server-process.ts';

export interface BenchServer {
  url: string;
  pid: number;
  output: () => string;
  stop: () => Promise<number>;
}

/** The same process the e2e tests start; a bench server may take a minute to open a big store. */
export async function startServer(env: Record<string, string>, entry = 'src/main.ts'): Promise<BenchServer> {
  const service = await spawnService(env, { entry });
  try {
    await untilHealthy(service, 60_000);
  } catch (error) {
    service.kill('SIGKILL');
    throw error;
  }
  return {
    url: service.url,
    pid: service.proc.pid,
    output: service.output,
    stop: async () => {
      service.kill('SIGTERM');
      const timer = setTimeout(() => service.kill('SIGKILL'), 15_000);
      const code = await service.exited;
      clearTimeout(timer);
      return code;
    },
  };
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
