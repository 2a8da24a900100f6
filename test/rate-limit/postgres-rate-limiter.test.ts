import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { PostgresRateLimiter } from '../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import { FixedClock } from '../support/clock.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { MINUTE, openPostgresLimiter, unique } from './limiters.ts';

describe('PostgresRateLimiter', () => {
  let pg: Awaited<ReturnType<typeof openPostgresLimiter>>;
  beforeEach(async () => {
    pg = await openPostgresLimiter();
  });
  afterEach(async () => {
    await pg.dispose();
  });

  const rows = () => pg.sql.unsafe(`SELECT key, window_start::text AS "windowStart", count FROM "${pg.schema}".rate_limits ORDER BY window_start, key`);

  test('rate_limits lives in the given schema, unlogged, one row per key and window holding its count', async () => {
    const key = `k_${unique()}`;
    for (let i = 0; i < 3; i++) await pg.limiter.hit(key, 10, MINUTE);

    const [table] = await pg.sql`SELECT c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ${pg.schema} AND c.relname = 'rate_limits'`;

    expect(table.relpersistence).toBe('u');
    expect([...(await rows())]).toEqual([{ key, windowStart: String(pg.clock.now()), count: 3 }]);
  });

  test('instances starting at once on a schema without the table all come up, over one table', async () => {
    const schema = `t_${unique()}`;
    await pg.sql.unsafe(`CREATE SCHEMA "${schema}"`);
    const pools = Array.from({ length: 4 }, () => new SQL({ url: TEST_POSTGRES_URL, max: 1 }));
    try {
      const opened = await Promise.all(pools.map((pool) => PostgresRateLimiter.open(pool, schema, new FixedClock())));
      const key = `k_${unique()}`;

      const verdicts = await Promise.all(opened.map((limiter) => limiter.hit(key, 2, MINUTE)));

      expect(verdicts.filter((v) => v.allowed)).toHaveLength(2);
    } finally {
      await pg.sql.unsafe(`DROP SCHEMA "${schema}" CASCADE`);
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });

  test('prune deletes the rows of ended windows and keeps the current one', async () => {
    const [old, current] = [`k_${unique()}`, `k_${unique()}`];
    await pg.limiter.hit(old, 10, 1_000);
    pg.clock.advance(1_000); // within the minute before hits prune by themselves
    await pg.limiter.hit(current, 10, 1_000);

    const deleted = await pg.limiter.prune();

    expect(deleted).toBe(1);
    expect([...(await rows())].map((r) => r.key)).toEqual([current]);
  });

  test('hits prune ended windows by themselves, once a minute', async () => {
    const old = `k_${unique()}`;
    await pg.limiter.hit(old, 10, MINUTE);
    pg.clock.advance(2 * MINUTE);

    await pg.limiter.hit(`k_${unique()}`, 10, MINUTE);
    const deletedByHit = await pg.limiter.lastPrune();
    await pg.limiter.hit(`k_${unique()}`, 10, MINUTE);
    const sameRound = await pg.limiter.lastPrune();

    expect(deletedByHit).toBe(1);
    expect(sameRound).toBe(1); // no second prune within the minute
    expect([...(await rows())].map((r) => r.key)).not.toContain(old);
  });

  test('a refused key is answered without a round trip for the rest of its window', async () => {
    const key = `k_${unique()}`;
    await pg.limiter.hit(key, 1, MINUTE);
    await pg.limiter.hit(key, 1, MINUTE);

    for (let i = 0; i < 5; i++) await pg.limiter.hit(key, 1, MINUTE);

    expect([...(await rows())].map((r) => r.count)).toEqual([2]);
  });

  test("beside the service's own tables: opened on a store's pool and schema", async () => {
    const schema = `t_${unique()}`;
    const store = await openPostgresStore(TEST_POSTGRES_URL, { schema, max: 2 });
    try {
      const limiter = await PostgresRateLimiter.open(store.sql, store.schema, new FixedClock());

      const verdict = await limiter.hit(`k_${unique()}`, 1, MINUTE);
      const [found] = await store.sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${schema} AND table_name IN ('rate_limits', 'licenses')`;

      expect(verdict.allowed).toBe(true);
      expect(found.n).toBe(2);
    } finally {
      await store.sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await store.close();
    }
  });

  test('a schema name that is not a plain identifier is refused before any SQL runs', async () => {
    await expect(PostgresRateLimiter.open(pg.sql, 'x"; DROP TABLE y; --', new FixedClock())).rejects.toThrow(/schema name/);
  });
});
