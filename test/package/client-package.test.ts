import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { productFingerprint } from '../../src/client/index.ts';
import { SLOW } from '../browser/browser.ts';
import { useSandboxService } from '../browser/service.ts';
import { grantedSeller, type GrantedSeller } from '../client/granted-seller.ts';
import { tempDirs } from '../client/support.ts';

/**
 * @licensing/client as a user gets it: built by the one script, packed to a tarball, installed
 * with npm into a fresh Node 20 project and a fresh `tsc --strict` project, where the README's
 * example runs (and type-checks) exactly as written, against the real service.
 */
const ROOT = join(import.meta.dir, '..', '..');
const PACKAGE = join(ROOT, 'packages', 'client');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const service = useSandboxService();
const tempDir = tempDirs();
let tarball = '';
let tarFiles: string[] = [];
let seller: GrantedSeller;

function run(argv: string[], cwd: string, env: Record<string, string> = {}) {
  const proc = Bun.spawnSync(argv, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, stdout: 'pipe', stderr: 'pipe' });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

function must(result: ReturnType<typeof run>, what: string) {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return result;
}

/** The first ```js block that imports the package: the example, in README.md and docs/client.md alike. */
export function exampleIn(markdown: string): string | null {
  for (const block of markdown.matchAll(/```js\n([\s\S]*?)```/g)) if (block[1]!.includes("from '@licensing/client'")) return block[1]!;
  return null;
}
const EXAMPLE = exampleIn(readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8'));

/** A new project with the tarball installed by npm, offline, and the seller's JWKS saved beside the app. */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'acme-editor', private: true, type: 'module' }));
  must(run(['npm', 'install', '--offline', '--no-audit', '--no-fund', '--cache', join(dir, '.npm'), tarball], dir), 'npm install');
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify(seller.jwks, null, 2));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

beforeAll(async () => {
  must(run(['bun', 'run', 'build:client'], ROOT, { HOME: process.env.HOME ?? ROOT }), 'bun run build:client');
  const out = tempDir();
  must(run(['bun', 'pm', 'pack', '--ignore-scripts', '--destination', out, '--quiet'], PACKAGE, { HOME: process.env.HOME ?? ROOT }), 'bun pm pack');
  tarball = join(out, 'licensing-client-0.1.0.tgz');
  tarFiles = must(run(['tar', 'tzf', tarball], out), 'tar').stdout.split('\n').filter(Boolean);
  seller = await grantedSeller(service.call);
}, SLOW);

describe('@licensing/client, packed and installed', () => {
  test('the tarball holds the package.json, the ESM build and its declarations, and nothing else', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));

    expect(tarFiles).toContain('package/package.json');
    expect(tarFiles).toContain('package/dist/index.js');
    expect(tarFiles).toContain('package/dist/types/client/index.d.ts');
    expect(tarFiles.filter((f) => !/^package\/(package\.json|README\.md|dist\/index\.js|dist\/types\/.+\.d\.ts)$/.test(f))).toEqual([]);
    expect(manifest).toMatchObject({ name: '@licensing/client', type: 'module', exports: { '.': { types: './dist/types/client/index.d.ts', import: './dist/index.js' } } });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.scripts.prepack).toBe(manifest.scripts.build);
    expect(tarFiles).toContain('package/README.md');
  });

  test('the build output is not tracked: git ignores packages/client/dist', () => {
    expect(run(['git', 'check-ignore', '-q', join(PACKAGE, 'dist', 'index.js')], ROOT).code).toBe(0);
  });

  test('README.md shows docs/client.md’s example, word for word', () => {
    expect(EXAMPLE).not.toBeNull();
    expect(exampleIn(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toBe(EXAMPLE);
  });

  test('the example runs unchanged on Node 20: a wrong key warns and binds nothing, the right one binds this machine', async () => {
    const dir = project({ 'app.js': EXAMPLE! });
    const env = { LICENSING_URL: `${service.url}/v1`, LICENSING_PRODUCT_ID: seller.productId, XDG_DATA_HOME: join(dir, 'data') };

    const version = run(['node', '--version'], dir).stdout;
    const wrong = run(['node', 'app.js', seller.licenseKey], dir, { ...env, LICENSING_PUBLISHABLE_KEY: 'pk_wrong' });
    const unbound = await service.call('GET', `/licenses/${seller.licenseId}`, { key: seller.apiKey });
    const first = run(['node', 'app.js'], dir, { ...env, LICENSING_PUBLISHABLE_KEY: seller.publishableKey });
    const bound = await service.call('GET', `/licenses/${seller.licenseId}`, { key: seller.apiKey });
    const again = run(['node', 'app.js'], dir, { ...env, LICENSING_PUBLISHABLE_KEY: seller.publishableKey });

    expect(version).toStartWith('v20.');
    expect(wrong).toMatchObject({ code: 0, stdout: 'Licensed: pro, export\n' });
    expect(wrong.stderr).toContain('Licensing service: ');
    expect(unbound.body.machineFingerprint).toBeNull();
    expect(first).toMatchObject({ code: 0, stdout: 'Licensed: pro, export\n' });
    expect(first.stderr).not.toContain('Licensing service');
    expect(bound.body.machineFingerprint).toBe(await productFingerprint(seller.productId));
    expect(again).toMatchObject({ code: 0, stdout: 'Licensed: pro, export\n' });
    expect(readFileSync(join(dir, 'data', 'acme-editor', 'license.json'), 'utf8')).toContain(seller.licenseKey);
  });

  test('the example exits 1 with the reason when there is no license', () => {
    const dir = project({ 'app.js': EXAMPLE! });

    const result = run(['node', 'app.js'], dir, { LICENSING_URL: `${service.url}/v1`, LICENSING_PRODUCT_ID: seller.productId, LICENSING_PUBLISHABLE_KEY: seller.publishableKey, XDG_DATA_HOME: join(dir, 'data') });

    expect(result).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('No valid license (not_found).') });
  });

  test('the example type-checks unchanged under tsc --strict, the imported JWKS without a cast', () => {
    const dir = typescriptProject({ 'app.ts': EXAMPLE! }, { types: ['node'] });

    expect(run([TSC, '-p', '.'], dir)).toMatchObject({ code: 0, stdout: '' });
  });

  test('the declarations are real types: misuse is a compile error', () => {
    const misuse = `import { LicenseClient } from '@licensing/client';
const client = new LicenseClient({ baseUrl: 'https://licensing.example.com', apiKey: 'pk_x', productId: 'prod_x', publicKeys: { keys: [] } });
const result = await client.check({ online: 'yes' });
export const features: string[] = result.license.features;
new LicenseClient({ baseUrl: 'https://licensing.example.com' });
`;
    const dir = typescriptProject({ 'misuse.ts': misuse }, { types: ['node'] });

    const output = run([TSC, '-p', '.'], dir).stdout;

    expect(output).toMatch(/misuse\.ts\(3,\d+\): error TS2322: .*'boolean \| undefined'/); // online is a boolean
    expect(output).toMatch(/misuse\.ts\(4,\d+\): error TS18048: 'result\.license' is possibly 'undefined'/); // until valid is checked
    expect(output).toMatch(/misuse\.ts\(5,\d+\): error TS2739: .*apiKey, productId, publicKeys/); // all three required
  });

  test('the declarations need no Node types: a browser project type-checks too', () => {
    const app = `import { LicenseClient, type LicenseCheckResult } from '@licensing/client';
const client = new LicenseClient({ baseUrl: '/licensing', apiKey: 'pk_x', productId: ['prod_x', 'prod_y'], publicKeys: { keys: [] }, fingerprint: 'f'.repeat(64) });
export const result: Promise<LicenseCheckResult> = client.check();
`;
    const dir = typescriptProject({ 'app.ts': app }, { types: [], lib: ['es2022', 'dom'] });

    expect(run([TSC, '-p', '.'], dir)).toMatchObject({ code: 0, stdout: '' });
  });
});

/** A TypeScript project with the tarball installed; Node's types from this repository's node_modules when asked for. */
function typescriptProject(files: Record<string, string>, options: { types: string[]; lib?: string[] }): string {
  const dir = project(files);
  const compilerOptions = { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, resolveJsonModule: true, types: options.types, ...(options.lib ? { lib: options.lib } : {}) };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
  if (options.types.includes('node')) {
    mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  }
  return dir;
}
