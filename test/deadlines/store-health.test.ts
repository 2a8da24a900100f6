import { expect, test } from 'bun:test';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { EPISODE_QUIET_MS, isStoreUnavailable, StoreHealth } from '../../src/adapters/system/store-health.ts';

const pg = (errno: string) => Object.assign(new Error('query failed'), { cause: Object.assign(new Error('x'), { code: 'ERR_POSTGRES_SERVER_ERROR', errno }) });
const sqlite = (code: string) => Object.assign(new Error('x'), { code });

test('what counts as the store being unavailable, wrapped or not', () => {
  for (const error of [pg('55P03'), pg('57014'), pg('57P01'), pg('53100'), pg('08006'), sqlite('SQLITE_FULL'), sqlite('SQLITE_BUSY'), sqlite('SQLITE_IOERR_WRITE'), { code: 'ERR_POSTGRES_CONNECTION_CLOSED' }, { code: 'ECONNREFUSED' }, { code: 'ERR_POOL_WAIT_TIMEOUT' }]) {
    expect(isStoreUnavailable(error)).toBe(true);
  }
  for (const error of [pg('23505'), pg('22021'), sqlite('SQLITE_CONSTRAINT_UNIQUE'), new Error('boom'), null, 'text']) {
    expect(isStoreUnavailable(error)).toBe(false);
  }
});

test('one warning per episode, one line when it ends; locks leave the instance ready, a full disk does not', () => {
  let now = 0;
  const lines: Record<string, unknown>[] = [];
  const health = new StoreHealth(jsonLogger('info', (l) => lines.push(JSON.parse(l))), () => now);

  for (let i = 0; i < 100; i++) health.failed(pg('55P03'));
  expect(health.failingRecently()).toBe(false);
  health.failed(sqlite('SQLITE_FULL'));
  expect(health.failingRecently()).toBe(true);
  health.answered(); // too soon: still the same episode
  now += EPISODE_QUIET_MS + 1;
  expect(health.failingRecently()).toBe(false);
  health.answered();
  health.failed(pg('57P01'));

  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    ['warn', 'store unavailable: answering 503 until it recovers'],
    ['info', 'store available again'],
    ['warn', 'store unavailable: answering 503 until it recovers'],
  ]);
  expect(lines[0]).toMatchObject({ reason: '55P03' });
  expect(lines[1]).toMatchObject({ failedRequests: 101 });
});
