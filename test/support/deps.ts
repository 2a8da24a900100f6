import { randomBytes } from 'node:crypto';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { composeDeps } from '../../src/compose.ts';
import { settingsWith, type SettingsChanges } from '../../src/domain/settings.ts';
import type { Store } from '../../src/ports/deps.ts';
import { FixedClock } from './clock.ts';
import { TableResolver } from './host-resolver.ts';

export const TEST_ISSUER = 'http://127.0.0.1:3000';

/** The defaults, as seen from the address the test servers are reached at, with some changed. */
export const testSettings = (changes: SettingsChanges = {}) => settingsWith({ issuer: TEST_ISSUER, apiBaseUrl: `${TEST_ISSUER}/v1`, ...changes });

/**
 * Real adapters around any store, with a fixed clock, a fresh master key and the default settings;
 * webhook hosts resolve through a table (every name to a public address unless the test says otherwise).
 */
export function depsFor(store: Store, clock = new FixedClock(), settings: SettingsChanges = {}, hostResolver = new TableResolver()) {
  return composeDeps({ store, clock, masterKey: new Uint8Array(randomBytes(32)), settings: testSettings(settings), hostResolver });
}

/** A real SQLite store: `:memory:` by default, or a file path. */
export function sqliteDeps(path = ':memory:', clock = new FixedClock()) {
  const store = openSqliteStore(path);
  return { deps: depsFor(store, clock), store };
}
