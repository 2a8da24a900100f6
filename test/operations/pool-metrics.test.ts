import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { ServiceMetrics } from '../../src/adapters/system/metrics.ts';
import { testSchemas } from '../support/postgres-schemas.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { freshPostgresSchema, randomMasterKey, startServer } from '../support/server-process.ts';

/** One unlabelled sample's value on the page, or null when the page has no such sample. */
function sample(page: string, name: string): number | null {
  const line = page.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : null;
}

/**
 * db_pool_in_use and db_pool_waiting are read from the PostgreSQL pool gate when the page is
 * scraped: while statements hold every slot and more wait, the page shows both counts.
 */
describe('the pool gauges on PostgreSQL', () => {
  let schema: string;
  let store: PostgresStore;
  const metrics = new ServiceMetrics();

  beforeAll(async () => {
    schema = await testSchemas().take();
    // One connection: 4 slots (IN_FLIGHT_PER_CONNECTION); the rest wait their turn, 5 s at most.
    store = await openPostgresStore(TEST_POSTGRES_URL, { schema, max: 1, poolWaitMs: 5_000 });
    metrics.readFrom({ pool: store.poolUsage });
  });
  afterAll(async () => {
    await store?.close();
    if (schema) await testSchemas().give(schema);
  });

  test('an idle pool shows 0 and 0', async () => {
    const page = await metrics.text();
    expect({ inUse: sample(page, 'db_pool_in_use'), waiting: sample(page, 'db_pool_waiting') }).toEqual({ inUse: 0, waiting: 0 });
  });

  test('six slow statements on four slots: 4 in use and 2 waiting while they run, 0 and 0 after', async () => {
    const running = Promise.all(Array.from({ length: 6 }, () => store.sql.unsafe('SELECT pg_sleep(0.3)')));
    await Bun.sleep(50);
    const during = await metrics.text();
    await running;
    const after = await metrics.text();

    expect({ inUse: sample(during, 'db_pool_in_use'), waiting: sample(during, 'db_pool_waiting') }).toEqual({ inUse: 4, waiting: 2 });
    expect({ inUse: sample(after, 'db_pool_in_use'), waiting: sample(after, 'db_pool_waiting') }).toEqual({ inUse: 0, waiting: 0 });
  });
});

describe('the real service on PostgreSQL', () => {
  test('its metrics page carries the pool gauges', async () => {
    const pg = freshPostgresSchema();
    const token = 'metrics-token-0123456789abcdef';
    const server = await startServer({ DATABASE_URL: pg.databaseUrl, MASTER_KEY: randomMasterKey(), METRICS_TOKEN: token, RETENTION_SWEEP_MINUTES: '0' });
    try {
      const page = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
      // The scrape's own outbox query may hold a slot while the gauges are read.
      expect(sample(page, 'db_pool_in_use')).not.toBeNull();
      expect(sample(page, 'db_pool_in_use')!).toBeGreaterThanOrEqual(0);
      expect(sample(page, 'db_pool_waiting')).toBe(0);
    } finally {
      await server.stop();
      await pg.drop();
    }
  });
});
