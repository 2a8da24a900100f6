import { RedisClient, SQL } from 'bun';
import { randomUUID } from 'node:crypto';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory-rate-limiter.ts';
import { PostgresRateLimiter } from '../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import { RedisRateLimiter } from '../../src/adapters/rate-limit/redis-rate-limiter.ts';
import type { RateLimiter } from '../../src/ports/rate-limiter.ts';
import { FixedClock } from '../support/clock.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

/** The Redis every development and CI machine runs; TEST_REDIS_URL overrides it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const MINUTE = 60_000;
export const unique = () => randomUUID().replaceAll('-', '').slice(0, 16);

export interface OpenLimiter {
  limiter: RateLimiter;
  clock: FixedClock;
  /** Another instance over the same counts (a second pool, a second Redis client); null in memory. */
  another(): Promise<RateLimiter | null>;
  /** Closes every connection and removes every counter the test left. */
  dispose(): Promise<void>;
}

export interface LimiterSetup {
  name: string;
  open(): Promise<OpenLimiter>;
}

export const memoryLimiters: LimiterSetup = {
  name: 'memory',
  async open() {
    const clock = new FixedClock();
    return { limiter: new MemoryRateLimiter(clock), clock, another: async () => null, dispose: async () => {} };
  },
};

/** A fresh schema `t_<random>` (as the store would have created it), dropped by `dispose`. */
export async function openPostgresLimiter(clock = new FixedClock()) {
  const schema = `t_${unique()}`;
  const pools: SQL[] = [];
  const pool = () => {
    const sql = new SQL({ url: TEST_POSTGRES_URL, max: 8 });
    pools.push(sql);
    return sql;
  };
  const admin = pool();
  await admin.unsafe(`CREATE SCHEMA "${schema}"`);
  const limiter = await PostgresRateLimiter.open(admin, schema, clock);
  return {
    limiter,
    clock,
    schema,
    sql: admin,
    another: () => PostgresRateLimiter.open(pool(), schema, clock),
    async dispose() {
      try {
        await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    },
  };
}

export const postgresLimiters: LimiterSetup = { name: 'postgres', open: () => openPostgresLimiter() };

/** Keys under a prefix no other run uses, deleted by `dispose`. */
export async function openRedisLimiter(clock = new FixedClock()) {
  const prefix = `licensing:rl:test:${unique()}:`;
  const limiters: RedisRateLimiter[] = [];
  const connect = async () => {
    const limiter = await RedisRateLimiter.connect(TEST_REDIS_URL, clock, { prefix });
    limiters.push(limiter);
    return limiter;
  };
  const inspector = new RedisClient(TEST_REDIS_URL);
  const keys = async (): Promise<string[]> => (await inspector.send('KEYS', [`${prefix}*`])) as string[];
  return {
    limiter: await connect(),
    clock,
    prefix,
    inspector,
    keys,
    another: connect,
    async dispose() {
      const left = await keys();
      if (left.length > 0) await inspector.send('DEL', left);
      inspector.close();
      await Promise.all(limiters.map((l) => l.close()));
    },
  };
}

export const redisLimiters: LimiterSetup = { name: 'redis', open: () => openRedisLimiter() };

export const LIMITER_SETUPS: LimiterSetup[] = [memoryLimiters, postgresLimiters, redisLimiters];

/** `count` hits on `key` at once; how many were allowed. */
export async function concurrentHits(limiter: RateLimiter, key: string, count: number, limit: number, windowMs = MINUTE) {
  const verdicts = await Promise.all(Array.from({ length: count }, () => limiter.hit(key, limit, windowMs)));
  return verdicts;
}
