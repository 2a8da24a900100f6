import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { cliWorld, ROOT, type CliWorld } from './support.ts';

const BINARY = join(ROOT, 'dist', process.platform === 'win32' ? 'licensing.exe' : 'licensing');

let world: CliWorld;
let build: { code: number; output: string };
beforeAll(async () => {
  const proc = Bun.spawn(['bun', 'run', 'build:cli'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  build = { code, output: out + err };
  world = await cliWorld();
}, 120_000);
afterAll(async () => {
  await world.close();
});

function binary(args: string[]) {
  const run = Bun.spawnSync([BINARY, ...args], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

describe('the compiled binary (bun run build:cli → dist/licensing)', () => {
  test('builds', () => {
    expect(build).toMatchObject({ code: 0 });
    expect(Bun.file(BINARY).size).toBeGreaterThan(0);
  });

  test('answers --help with the commands and the exit codes, exit 0', () => {
    const run = binary(['--help']);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: licensing <command> [options]');
    expect(run.stdout).toContain('Exit codes:');
  });

  test('answers --version with the package version, exit 0', async () => {
    const { version } = await Bun.file(join(ROOT, 'package.json')).json();

    const run = binary(['--version']);

    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  test('runs the whole story on its own: signup, product, grant, activate, status', () => {
    const seller = [`--api-url=${world.apiUrl}`, `--config=${world.newConfig()}`];
    const buyer = [`--api-url=${world.apiUrl}`, `--config=${world.newConfig()}`];
    const signup = JSON.parse(binary(['seller', 'signup', '--email', `bin-${crypto.randomUUID()}@example.com`, '--name', 'Bin', '--json', ...seller]).stdout);
    const product = JSON.parse(binary(['seller', 'products', 'create', '--name', 'Bin Pro', '--price', '5', '--currency', 'usd', '--json', ...seller]).stdout);
    const grant = JSON.parse(binary(['seller', 'licenses', 'grant', '--product', product.id, '--email', 'b@example.com', '--json', ...seller]).stdout);

    const activate = binary(['activate', grant.licenseKey, '--publishable-key', signup.publishableKey, ...buyer]);
    const status = binary(['status', ...buyer]);

    expect([activate.code, status.code]).toEqual([0, 0]);
    expect(status.stdout).toMatch(/\bvalid\b.*\bonline\b.*\bbound\b/);
  });
});
