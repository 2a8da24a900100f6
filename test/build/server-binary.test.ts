import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_SCRIPT } from '../../src/adapters/http/routes/console-app.ts';
import { freePort } from '../support/server-process.ts';

const ROOT = join(import.meta.dir, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'licensing-binary-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the single binary carries its migrations, docs and seller console: run from an empty folder, it serves', async () => {
  const binary = join(work, 'licensing-server');
  const build = Bun.spawnSync(['bun', 'build', '--compile', join(ROOT, 'src/main.ts'), '--outfile', binary], { cwd: ROOT });
  expect(build.exitCode).toBe(0);
  const runDir = join(work, 'run');
  Bun.spawnSync(['mkdir', '-p', runDir]);
  const port = await freePort();
  const proc = Bun.spawn([binary], { cwd: runDir, env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_SECONDS: '0' } });
  try {
    let health: Response | null = null;
    for (let i = 0; i < 200 && !health?.ok; i++) {
      health = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => null);
      if (!health?.ok) await Bun.sleep(50);
    }
    expect(health?.status).toBe(200);
    // MEMORY_BUDGET_MB's restart (docs/operating.md, "Memory") works from the binary too: same pid, the engine told 512 MB.
    expect((await Bun.file(`/proc/${proc.pid}/environ`).text()).split('\0')).toContain(`BUN_JSC_forceRAMSize=${512 * 1024 * 1024}`);
    const signup = await fetch(`http://127.0.0.1:${port}/v1/developers/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'binary@example.com', name: 'Binary' }),
    });
    expect(signup.status).toBe(201);
    expect((await fetch(`http://127.0.0.1:${port}/v1/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    const shell = await (await fetch(`http://127.0.0.1:${port}/v1/console`)).text();
    expect(shell).toContain(CONSOLE_SCRIPT.name);
    expect(await (await fetch(`http://127.0.0.1:${port}/v1/console/assets/${CONSOLE_SCRIPT.name}`)).text()).toBe(CONSOLE_SCRIPT.body);
  } finally {
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }
  expect(readdirSync(join(runDir, 'data')).sort()).toEqual(['licensing.db', 'master.key']);
});
