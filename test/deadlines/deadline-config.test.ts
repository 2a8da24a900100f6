import { describe, expect, test } from 'bun:test';
import { ConfigError, DEFAULT_DEADLINES, DEFAULT_SHUTDOWN_DRAIN_SECONDS, loadConfig } from '../../src/config.ts';

describe('deadline settings', () => {
  test('unset: statement 5 s, lock 2 s, pool wait 2 s, connect 5 s, SQLite busy 1 s, drain 5 s', () => {
    const config = loadConfig({});
    expect(config.deadlines).toEqual({ statementTimeoutMs: 5_000, lockTimeoutMs: 2_000, connectTimeoutMs: 5_000, poolWaitMs: 2_000, sqliteBusyTimeoutMs: 1_000 });
    expect(config.deadlines).toEqual(DEFAULT_DEADLINES);
    expect(config.shutdownDrainSeconds).toBe(DEFAULT_SHUTDOWN_DRAIN_SECONDS);
  });

  test('each is set by its variable', () => {
    const config = loadConfig({ DB_STATEMENT_TIMEOUT_MS: '1500', DB_LOCK_TIMEOUT_MS: '300', DB_CONNECT_TIMEOUT_MS: '2000', DB_POOL_WAIT_MS: '250', SQLITE_BUSY_TIMEOUT_MS: '0', SHUTDOWN_DRAIN_SECONDS: '0' });
    expect(config.deadlines).toEqual({ statementTimeoutMs: 1_500, lockTimeoutMs: 300, connectTimeoutMs: 2_000, poolWaitMs: 250, sqliteBusyTimeoutMs: 0 });
    expect(config.shutdownDrainSeconds).toBe(0);
  });

  test.each([
    ['DB_STATEMENT_TIMEOUT_MS', '0'],
    ['DB_LOCK_TIMEOUT_MS', '2.5'],
    ['DB_POOL_WAIT_MS', 'soon'],
    ['DB_CONNECT_TIMEOUT_MS', '-1'],
    ['SQLITE_BUSY_TIMEOUT_MS', '99999999'],
    ['SHUTDOWN_DRAIN_SECONDS', '301'],
  ])('%s=%s is refused, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });
});
