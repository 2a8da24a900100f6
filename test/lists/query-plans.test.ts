import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { licenseListQuery } from '../../src/adapters/store/licenses/license-queries.ts';
import { orderListQuery } from '../../src/adapters/store/orders/order-queries.ts';
import { postgresSqlStore, sqliteSqlStore } from '../../src/adapters/store/sql-store.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import type { LicenseListQuery } from '../../src/ports/license-repository.ts';
import type { OrderListQuery } from '../../src/ports/order-repository.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { PostgresSchemaPool } from '../support/postgres-schemas.ts';

const expired = { status: { is: 'expired' as const, now: 1_000 } };

/** The lists the benchmark measures, each with the index it must walk in list order. */
const LICENSE_CASES: [string, Partial<LicenseListQuery>, string][] = [
  ['newest page', {}, 'licenses_developer_issued'],
  ['by product', { productId: 'prod_x' }, 'licenses_developer_product_issued'],
  ['revoked', { status: { is: 'revoked', now: 0 } }, 'licenses_developer_status_issued'],
  ['expired, by expiry', expired, 'licenses_developer_status_expiry'],
  ['expired after a cursor', { ...expired, after: { issuedAt: 5, expiresAt: 900, id: 'lic_y' } }, 'licenses_developer_status_expiry'],
  ['created range', { issuedFrom: 1, issuedBefore: 2 }, 'licenses_developer_issued'],
];
const ORDER_CASES: [string, Partial<OrderListQuery>, string | undefined, string][] = [
  ['newest orders', {}, undefined, 'orders_developer_order'],
  ['orders of a product', { productId: 'prod_x' }, undefined, 'orders_developer_product'],
  ['orders of a customer', {}, 'cus_x', 'orders_developer_customer'],
];

/** The seller lists walk an index in list order: no table scan, no sort of the whole seller's licenses. */
describe('SQLite plans of the lists', () => {
  const store = openSqliteStore(':memory:');
  store.sqlite.run('ANALYZE');
  const explain = ({ sql, params }: { sql: string; params: unknown[] }) => {
    const rows = store.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { parent: number; detail: string }[];
    // Only the outer query's steps (parent 0): the machine subquery sorts a license's few activations.
    return rows.filter((r) => r.parent === 0).map((r) => r.detail).join('\n');
  };
  const plan = (query: Partial<LicenseListQuery>) => explain(licenseListQuery(sqliteSqlStore(store.db), 'dev_x', { limit: 20, ...query }).toSQL());

  test.each(LICENSE_CASES)('%s walks its index', (_name, query, index) => {
    const detail = plan(query);
    expect(detail).toContain(index);
    expect(detail).not.toContain('USE TEMP B-TREE');
  });

  test('by e-mail starts at the customer', () => {
    expect(plan({ customerEmail: 'ann@example.com' })).toMatch(/customers USING (INDEX|COVERING INDEX) customers_email/);
  });

  test.each(ORDER_CASES)('%s walk their index', (_name, query, customerId, index) => {
    const detail = explain(orderListQuery(sqliteSqlStore(store.db), 'dev_x', { limit: 20, ...query }, customerId).toSQL());
    expect(detail).toContain(index);
    expect(detail).not.toContain('USE TEMP B-TREE');
  });

  test('a cursor starts the index range at it, instead of walking down to it', () => {
    const after = { issuedAt: 5, id: 'lic_y' };
    const orders = explain(orderListQuery(sqliteSqlStore(store.db), 'dev_x', { limit: 20, after: { createdAt: 5, id: 'ord_y' } }, undefined).toSQL());

    expect(plan({ after })).toContain('licenses_developer_issued (developer_id=? AND issued_at<?)');
    expect(plan({ after, productId: 'prod_x' })).toContain('licenses_developer_product_issued (developer_id=? AND product_id=? AND issued_at<?)');
    expect(orders).toContain('orders_developer_order (developer_id=? AND created_at<?)');
  });
});

/**
 * PostgreSQL plans on an empty schema: with sequential scans priced out (SET LOCAL enable_seqscan =
 * off) the planner shows which index it would walk; a backward index scan with no Sort above it reads
 * the page in list order. (On 1,000,000 licenses the plans are the same: bench/README.md.)
 */
describe('PostgreSQL plans of the lists', () => {
  // A schema never written to: one emptied by DELETE keeps pages and statistics that change plans.
  const fresh = new PostgresSchemaPool();
  let pg: Awaited<ReturnType<typeof openPostgresTestStore>>;
  beforeAll(async () => {
    pg = await openPostgresTestStore(fresh);
  });
  afterAll(async () => {
    await pg.dispose();
    await fresh.close();
  });
  const explain = async ({ sql, params }: { sql: string; params: unknown[] }) => {
    const rows = await pg.store.sql.begin(async (tx) => {
      await tx.unsafe('SET LOCAL enable_seqscan = off');
      return tx.unsafe(`EXPLAIN ${sql}`, params as never[]);
    });
    const lines = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
    // The outer query only: the machine subplan sorts one license's few activations.
    return lines.slice(0, Math.max(0, lines.findIndex((l) => l.includes('SubPlan'))) || lines.length).join('\n');
  };

  test.each(LICENSE_CASES)('%s walks its index', async (_name, query, index) => {
    const detail = await explain(licenseListQuery(postgresSqlStore(pg.store.db), 'dev_x', { limit: 20, ...query }).toSQL());
    expect(detail).toContain(`Index Scan Backward using ${index} on licenses`);
    expect(detail).not.toMatch(/Sort|Seq Scan/);
  });

  test.each(ORDER_CASES)('%s walk their index', async (_name, query, customerId, index) => {
    const detail = await explain(orderListQuery(postgresSqlStore(pg.store.db), 'dev_x', { limit: 20, ...query }, customerId).toSQL());
    expect(detail).toContain(`Index Scan Backward using ${index} on orders`);
    expect(detail).not.toMatch(/Sort|Seq Scan/);
  });

  test('a cursor starts the index range at it, instead of walking down to it', async () => {
    const licenses = await explain(licenseListQuery(postgresSqlStore(pg.store.db), 'dev_x', { limit: 20, after: { issuedAt: 5, id: 'lic_y' } }).toSQL());
    const orders = await explain(orderListQuery(postgresSqlStore(pg.store.db), 'dev_x', { limit: 20, after: { createdAt: 5, id: 'ord_y' } }, undefined).toSQL());

    expect(licenses).toMatch(/Index Cond: \(\(developer_id = 'dev_x'::text\) AND \(issued_at <= '?5/);
    expect(orders).toMatch(/Index Cond: \(\(developer_id = 'dev_x'::text\) AND \(created_at <= '?5/);
  });
});
