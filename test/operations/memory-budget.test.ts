import { describe, expect, test } from 'bun:test';
import { budgetedRestart, DEFAULT_MEMORY_BUDGET_MB, HEAP_RAM_ENV, parseMemoryBudget } from '../../src/adapters/system/heap-budget.ts';
import { spawnService, startServer, untilHealthy } from '../support/server-process.ts';

const MB = 1024 * 1024;
const listening = (stdout: string) => stdout.split('\n').filter((line) => line.includes('"listening"')).map((line) => JSON.parse(line) as { heapSizedForMb: number | null });

describe('MEMORY_BUDGET_MB: parsing', () => {
  test('unset or empty is the default; 0 turns it off; 128 MB to 1 TB in whole megabytes', () => {
    expect(parseMemoryBudget(undefined)).toBe(DEFAULT_MEMORY_BUDGET_MB);
    expect(parseMemoryBudget('')).toBe(512);
    expect(parseMemoryBudget('0')).toBe(0);
    expect(parseMemoryBudget('128')).toBe(128);
    expect(parseMemoryBudget('1048576')).toBe(1_048_576);
  });

  test('anything else is refused (null), never guessed', () => {
    for (const bad of ['127', '1048577', '-1', '1.5', '512MB', ' 512', '0x200', '1e3', 'abc', '512\u0000', '99999999']) expect(parseMemoryBudget(bad)).toBeNull();
  });
});

describe('MEMORY_BUDGET_MB: the restart', () => {
  const runtime = { main: '/srv/app/src/main.ts', argv: ['/usr/bin/bun', '/srv/app/src/main.ts', '--x'], execArgv: ['--smol'], execPath: '/usr/bin/bun' };

  test('`bun [flags] run file`: the same runtime, flags, file and arguments, with the engine told the budget in bytes', () => {
    const restart = budgetedRestart({ ...runtime, env: { PATH: '/bin', PORT: '3000' } });
    expect(restart).toEqual({ path: '/usr/bin/bun', args: ['/usr/bin/bun', '--smol', '/srv/app/src/main.ts', '--x'], env: { PATH: '/bin', PORT: '3000', [HEAP_RAM_ENV]: String(512 * MB) } });
  });

  test('the single binary: itself, with its arguments (argv[1] is its own embedded entry)', () => {
    const restart = budgetedRestart({ main: '/$bunfs/root/licensing-server', argv: ['bun', '/$bunfs/root/licensing-server', 'a'], execArgv: [], execPath: '/opt/licensing-server', env: { MEMORY_BUDGET_MB: '256' } });
    expect(restart).toEqual({ path: '/opt/licensing-server', args: ['/opt/licensing-server', 'a'], env: { MEMORY_BUDGET_MB: '256', [HEAP_RAM_ENV]: String(256 * MB) } });
  });

  test('no restart once the variable is set (by the restart itself or by the operator), with the budget off, or with a malformed one (start-up then refuses it)', () => {
    expect(budgetedRestart({ ...runtime, env: { [HEAP_RAM_ENV]: String(512 * MB) } })).toBeNull();
    expect(budgetedRestart({ ...runtime, env: { [HEAP_RAM_ENV]: '1073741824', MEMORY_BUDGET_MB: '256' } })).toBeNull();
    expect(budgetedRestart({ ...runtime, env: { MEMORY_BUDGET_MB: '0' } })).toBeNull();
    expect(budgetedRestart({ ...runtime, env: { MEMORY_BUDGET_MB: 'lots' } })).toBeNull();
  });
});

describe('MEMORY_BUDGET_MB: the real service', () => {
  test('by default the process restarts itself once, keeping its pid, and serves with the heap sized for 512 MB', async () => {
    const server = await startServer({ DATABASE_URL: 'sqlite::memory:' }, { inheritEnv: false });
    try {
      expect(listening(server.stdout()).map((l) => l.heapSizedForMb)).toEqual([512]);
      const environ = await Bun.file(`/proc/${server.proc.pid}/environ`).text();
      expect(environ.split('\0')).toContain(`${HEAP_RAM_ENV}=${512 * MB}`);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('MEMORY_BUDGET_MB=0: no restart, the machine’s memory; an operator’s own BUN_JSC_forceRAMSize is kept as is', async () => {
    const off = await startServer({ DATABASE_URL: 'sqlite::memory:', MEMORY_BUDGET_MB: '0' }, { inheritEnv: false });
    const own = await startServer({ DATABASE_URL: 'sqlite::memory:', [HEAP_RAM_ENV]: String(300 * MB) }, { inheritEnv: false });
    try {
      expect(listening(off.stdout()).map((l) => l.heapSizedForMb)).toEqual([null]);
      expect(listening(own.stdout()).map((l) => l.heapSizedForMb)).toEqual([300]);
    } finally {
      expect(await off.stop()).toBe(0);
      expect(await own.stop()).toBe(0);
    }
  });

  test('a malformed MEMORY_BUDGET_MB stops start-up with one clear line, exit 1', async () => {
    const service = await spawnService({ DATABASE_URL: 'sqlite::memory:', MEMORY_BUDGET_MB: '64' }, { inheritEnv: false });
    const code = await service.exited;
    expect(code).toBe(1);
    expect(service.output()).toContain('Configuration error: MEMORY_BUDGET_MB must be 0');
    expect(service.output()).toContain('Got "64"');
    await expect(untilHealthy(service, 100)).rejects.toThrow();
  });
});
