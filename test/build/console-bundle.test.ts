import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { consoleModule, GENERATED } from '../../scripts/build-console.ts';

/** The console's committed bundle (src/adapters/http/console/generated) is the source's, built now. */
describe('the seller console bundle', () => {
  test('the committed bundle is what `bun run build:console` makes from src/console today', async () => {
    const fresh = await consoleModule();
    const committed = readFileSync(GENERATED, 'utf8');
    if (fresh !== committed) throw new Error('src/adapters/http/console/generated/assets.ts is stale: run `bun run build:console` and commit it');
    expect(fresh).toBe(committed);
  }, 30_000);

  test('one script and one stylesheet, named by a hash of their content, the script small enough for a phone', async () => {
    const { CONSOLE_SCRIPT, CONSOLE_STYLE } = await import('../../src/adapters/http/console/generated/assets.ts');
    const hasher = (body: string) => new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 12);
    expect(CONSOLE_SCRIPT.name).toBe(`console-${hasher(CONSOLE_SCRIPT.body)}.js`);
    expect(CONSOLE_STYLE.name).toBe(`console-${hasher(CONSOLE_STYLE.body)}.css`);
    // The budget docs/console.md states: 60 kB gzipped for everything the console runs.
    expect(Bun.gzipSync(new TextEncoder().encode(CONSOLE_SCRIPT.body)).length).toBeLessThan(60_000);
  });
});
