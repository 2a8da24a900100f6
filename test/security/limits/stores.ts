import { openPostgresTestStore, openSqliteTestStore, type TestStore } from '../../contracts/stores.ts';
import { FixedClock } from '../../support/clock.ts';
import { depsFor } from '../../support/deps.ts';
import { testApi } from '../../support/http.ts';
import type { Deps } from '../../../src/ports/deps.ts';

/** The HTTP app (app.handle) over a SQLite file or a fresh PostgreSQL schema. */
export const HTTP_STORES: { name: string; open: () => Promise<TestStore> }[] = [
  { name: 'SQLite', open: openSqliteTestStore },
  { name: 'PostgreSQL', open: openPostgresTestStore },
];

/** The app over `opened`'s store with `overrides` on the test deps; a fixed clock. */
export function apiOver(opened: TestStore, overrides: Partial<Omit<Deps, 'clock'>> = {}) {
  const deps = { ...depsFor(opened.store, new FixedClock()), ...overrides };
  return testApi({ deps });
}

/** Headers that make a request come from `address` when the deps trust X-Forwarded-For. */
export const from = (address: string) => ({ 'x-forwarded-for': address });
