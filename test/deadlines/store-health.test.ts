import { expect, test } from 'bun:test';
import { SQL } from 'bun';
import { jsonLogger } from '../../src/adapters/system/logger.ts';
import { EPISODE_QUIET_MS, isStoreUnavailable, StoreHealth } from '../../src/adapters/system/store-health.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { freePort } from '../support/server-process.ts';

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

test('every connection-level failure by class, so a code not listed yet is no 500; bugs stay bugs', () => {
  const driver = (code: string) => Object.assign(new Error('x'), { name: 'PostgresError', code });
  const unavailable = [
    ...['08001', '08004', '08P01', '53300', '53400', '57P01', '57P02', '57P03', '57P05', '58030', '28P01', '28000'].map(pg),
    ...['ERR_POSTGRES_CONNECTION_REFUSED', 'ERR_POSTGRES_CONNECTION_FAILED', 'ERR_POSTGRES_TLS_NOT_AVAILABLE', 'ERR_POSTGRES_TLS_UPGRADE_FAILED', 'ERR_POSTGRES_AUTHENTICATION_FAILED_PBKDF2', 'ERR_POSTGRES_IDLE_TIMEOUT'].map(driver),
    ...['ENOTFOUND', 'EAI_AGAIN', 'EPROTO', 'EPIPE', 'ECONNRESET', 'ECONNABORTED'].map((code) => ({ code })),
  ];
  for (const error of unavailable) expect({ error, unavailable: isStoreUnavailable(error) }).toEqual({ error, unavailable: true });
  const bugs = [pg('42601'), pg('42P01'), pg('22P02'), pg('XX000'), driver('ERR_POSTGRES_SYNTAX_ERROR'), driver('ERR_POSTGRES_TOO_MANY_PARAMETERS'), driver('ERR_POSTGRES_SERVER_ERROR'), { code: 'ENOENT' }];
  for (const error of bugs) expect({ error, unavailable: isStoreUnavailable(error) }).toEqual({ error, unavailable: false });
});

test('the errors the Bun driver really throws for a refused port, an unknown host and a server without TLS', async () => {
  const errorOf = async (url: string) => {
    const sql = new SQL({ url, max: 1, connectionTimeout: 2 });
    try {
      await sql`SELECT 1`;
      return null;
    } catch (error) {
      return error;
    } finally {
      await sql.close().catch(() => {});
    }
  };
  const refused = await errorOf(`postgres://postgres@127.0.0.1:${await freePort()}/test`);
  const unknownHost = await errorOf('postgres://postgres@pg.database.invalid:5432/test');
  const noTls = await errorOf(withSslRequired(TEST_POSTGRES_URL));
  for (const error of [refused, unknownHost, noTls]) expect(isStoreUnavailable(error)).toBe(true);
});

test('a transaction PostgreSQL rolls back to break a real deadlock is unavailable (retry), not a bug', async () => {
  const table = `deadlock_${process.pid}_${Date.now()}`;
  const admin = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  const one = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  const two = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
  try {
    await admin.unsafe(`CREATE TABLE ${table} (id int PRIMARY KEY, n int); INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
    const both = Promise.withResolvers<void>();
    let locked = 0;
    const crossing = (sql: SQL, first: number, second: number) =>
      sql.begin(async (tx) => {
        await tx.unsafe(`UPDATE ${table} SET n = n + 1 WHERE id = ${first}`);
        if (++locked === 2) both.resolve();
        await both.promise;
        await tx.unsafe(`UPDATE ${table} SET n = n + 1 WHERE id = ${second}`);
      });
    const outcomes = await Promise.allSettled([crossing(one, 1, 2), crossing(two, 2, 1)]);
    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason);

    expect(failures).toHaveLength(1);
    expect(isStoreUnavailable(failures[0])).toBe(true);
  } finally {
    await admin.unsafe(`DROP TABLE IF EXISTS ${table}`);
    await Promise.all([admin.close(), one.close(), two.close()]);
  }
});

/** The test server speaks no TLS: requiring it fails the connection. */
function withSslRequired(base: string): string {
  const url = new URL(base);
  url.searchParams.set('sslmode', 'require');
  return url.href;
}

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
