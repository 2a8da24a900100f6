import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const BENCH = join(import.meta.dir, '../../bench');

// `bun run bench` runs outside `bun test`: a module it imports (test helpers included) must not
// need the test runner (a preloaded afterAll once broke it without a failing test).
/** Entry points: they start their work when loaded. */
const ENTRY_POINTS = ['run.ts', 'micro.ts', 'sign-steps.ts'];

test('every benchmark module loads outside the test runner', () => {
  const modules = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && !ENTRY_POINTS.includes(f));
  const script = modules.map((m) => `await import(${JSON.stringify(join(BENCH, m))});`).join('\n') + "\nconsole.log('loaded');";
  const run = Bun.spawnSync([process.execPath, '-e', script], { env: { ...process.env, NODE_ENV: 'production' }, stdout: 'pipe', stderr: 'pipe' });
  expect({ code: run.exitCode, err: run.stderr.toString().slice(0, 2000) }).toEqual({ code: 0, err: '' });
  expect(run.stdout.toString()).toContain('loaded');
});
