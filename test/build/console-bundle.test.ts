import { afterAll, describe, expect, test } from 'bun:test';
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleConsole } from '../../src/adapters/http/console/bundle.ts';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from '../../src/adapters/http/routes/console-app.ts';
import { spawnService, untilHealthy } from '../support/server-process.ts';

const ROOT = join(import.meta.dir, '..', '..');

/** The seller console is bundled from src/console when Bun transpiles its route (src/adapters/http/console/bundle.ts). */
describe('the seller console bundle', () => {
  test('the served assets are what src/console bundles to now', async () => {
    const fresh = await bundleConsole();
    expect(CONSOLE_SCRIPT).toEqual(fresh.script);
    expect(CONSOLE_STYLE).toEqual(fresh.style);
  }, 30_000);

  test('one script and one stylesheet, named by a hash of their content, the script small enough for a phone', () => {
    const hasher = (body: string) => new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 12);
    expect(CONSOLE_SCRIPT.name).toBe(`console-${hasher(CONSOLE_SCRIPT.body)}.js`);
    expect(CONSOLE_STYLE.name).toBe(`console-${hasher(CONSOLE_STYLE.body)}.css`);
    // The budget docs/console.md states: 60 kB gzipped for everything the console runs.
    expect(Bun.gzipSync(new TextEncoder().encode(CONSOLE_SCRIPT.body)).length).toBeLessThan(60_000);
  });
});

describe('a fresh clone', () => {
  const copy = mkdtempSync(join(tmpdir(), 'licensing-clone-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** The console's script as the copy's `bun run start` serves it (NODE_ENV=production, no other setting). */
  async function servedScript(): Promise<string> {
    const service = await spawnService({ NODE_ENV: 'production', LOG_LEVEL: 'warn' }, { root: copy, inheritEnv: false });
    try {
      await untilHealthy(service);
      const shell = await (await fetch(`${service.url}/v1/console`)).text();
      const src = shell.match(/<script type="module" src="([^"]+)"/)?.[1];
      const script = await fetch(`${service.url}${src}`);
      expect(script.status).toBe(200);
      return await script.text();
    } finally {
      service.kill();
      await service.exited;
    }
  }

  test('serves the console with nothing built, and serves an edit of src/console at the next start', async () => {
    // What a commit of this working tree would hold (tracked and new files, not the ignored ones), and the installed packages.
    const files = Bun.spawnSync(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT }).stdout.toString().split('\0').filter(Boolean);
    for (const file of files) if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(copy, file));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));

    expect(await servedScript()).toBe(CONSOLE_SCRIPT.body);

    appendFileSync(join(copy, 'src/console/main.tsx'), "\n(globalThis as { edited?: string }).edited = 'after the first start';\n");
    expect(await servedScript()).toContain('after the first start');
  }, 60_000);
});
