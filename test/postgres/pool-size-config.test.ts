import { describe, expect, test } from 'bun:test';
import { availableParallelism } from 'node:os';
import { ConfigError, defaultPoolSize, loadConfig } from '../../src/config.ts';

describe('DATABASE_POOL_SIZE', () => {
  test('unset: twice the cores, at least 4 and at most 16', () => {
    expect(loadConfig({}).postgresPoolSize).toBe(defaultPoolSize(availableParallelism()));
    expect([1, 2, 4, 8, 64].map(defaultPoolSize)).toEqual([4, 4, 8, 16, 16]);
  });

  test('a whole number from 1 to 100 sets it', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).postgresPoolSize).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: '24' }).postgresPoolSize).toBe(24);
  });

  test.each(['0', '101', '-3', '2.5', 'many', '1e2'])('DATABASE_POOL_SIZE=%s is refused, naming the variable', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/^DATABASE_POOL_SIZE /);
  });
});
