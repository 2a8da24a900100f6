import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { productListQuery } from '../../src/adapters/store/products/product-queries.ts';
import { subscriptionListQuery } from '../../src/adapters/store/subscriptions/subscription-queries.ts';
import { postgresSqlStore, sqliteSqlStore, type SqlStore } from '../../src/adapters/store/sql-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';

type Query = { toSQL(): { sql: string; params: unknown[] } };

/** The shared lists, built by each dialect's hooks, walk their seller's index in list order. */
const CASES: [string, (store: SqlStore) => Query, string][] = [
  ['first page', (store) => productListQuery(store, 'dev_x', 21, null), 'products_developer_order'],
  ['after a cursor', (store) => productListQuery(store, 'dev_x', 21, { createdAt: 5, id: 'prod_y' }), 'products_developer_order'],
  ['subscriptions, first page', (store) => subscriptionListQuery(store, 'dev_x', { limit: 20 }), 'subscriptions_developer_order'],
  ['subscriptions, after a cursor', (store) => subscriptionListQuery(store, 'dev_x', { limit: 20, after: { createdAt: 5, id: 'sub_y' } }), 'subscriptions_developer_order'],
];

describe('SQLite plans of the shared lists', () => {
  const store = openSqliteStore(':memory:');
  store.sqlite.run('ANALYZE');
  const explain = ({ sql, params }: { sql: string; params: unknown[] }) =>
    (store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[]).map((r) => r.detail).join('\n');

  test.each(CASES)('%s walks its index', (_name, query, index) => {
    const detail = explain(query(sqliteSqlStore(store.db)).toSQL());
    expect(detail).toContain(index);
    expect(detail).not.toContain('USE TEMP B-TREE');
  });
});

describe('PostgreSQL plans of the shared lists', () => {
  let pg: Awaited<ReturnType<typeof openPostgresTestStore>>;
  beforeAll(async () => {
    pg = await openPostgresTestStore();
  });
  afterAll(async () => {
    await pg.dispose();
  });
  const explain = async ({ sql, params }: { sql: string; params: unknown[] }) => {
    const rows = await pg.store.sql.begin(async (tx) => {
      // On an empty schema the planner would rather sort a bitmap scan's few rows: priced out, it shows the index walk.
      await tx.unsafe('SET LOCAL enable_seqscan = off');
      await tx.unsafe('SET LOCAL enable_bitmapscan = off');
      return tx.unsafe(`EXPLAIN ${sql}`, params as never[]);
    });
    return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
  };

  test.each(CASES)('%s walks its index', async (_name, query, index) => {
    const detail = await explain(query(postgresSqlStore(pg.store.db)).toSQL());
    expect(detail).toMatch(new RegExp(`Index Scan (Backward )?using ${index} on`));
    expect(detail).not.toMatch(/Sort|Seq Scan/);
  });

  test('the cursor starts the index range at it', async () => {
    const detail = await explain(productListQuery(postgresSqlStore(pg.store.db), 'dev_x', 21, { createdAt: 5, id: 'prod_y' }).toSQL());
    expect(detail).toMatch(/Index Cond: \(\(developer_id = 'dev_x'::text\) AND \(ROW\(created_at, \(id\)::text\) > ROW\(5, 'prod_y'/);
  });
});
