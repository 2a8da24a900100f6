import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { CONSOLE_TYPES, consoleTypesModule } from '../../scripts/console-types.ts';

/** The console's committed API types (src/console/api-types.ts) are the served document's, generated now. */
test('src/console/api-types.ts is what `bun run build:console-types` makes from GET /v1/openapi.json today', async () => {
  const fresh = await consoleTypesModule();
  const committed = readFileSync(CONSOLE_TYPES, 'utf8');
  if (fresh !== committed) throw new Error('src/console/api-types.ts is stale: run `bun run build:console-types` and commit it');
  expect(fresh).toBe(committed);
}, 30_000);
