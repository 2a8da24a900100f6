/**
 * The lists benchmark's bulk rows, generated inside the database (SQLite: a recursive CTE; PostgreSQL:
 * generate_series) so no row crosses the wire. License i (0 ≤ i < count) is issued at t0 + i·step and
 * its kind follows i % 20:
 *   0–1 revoked (0 with a refunded order) · 2–4 expired (already announced, as a sweep would) ·
 *   6–8 yearly, expiring within a year · 9 trial of 14 days (expired unless recent) · 19 granted
 *   (no order) · the rest perpetual. Machines for 10–15. Customer i % customers, product i % 5.
 * Every value is ours (numbers, ids from the use cases, a hex salt): nothing needs escaping.
 */

export type Dialect = 'sqlite' | 'postgres';

export interface Shape {
  developerId: string;
  products: string[];
  count: number;
  customers: number;
  t0: number;
  step: number;
  /** Seeding time: expired is before it, yearly after it. */
  now: number;
  salt: string;
}

const DAY = 86_400_000;

export function generated(dialect: Dialect, s: Shape) {
  const pg = dialect === 'postgres';
  const series = (from: number, to: number, name: string) =>
    pg
      ? `${name} AS (SELECT ${name}.i FROM generate_series(${from}::bigint, ${to - 1}::bigint) AS ${name}(i))`
      : `RECURSIVE ${name}(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM ${name} WHERE i + 1 < ${to})`;
  const hex = (bytes: number, seed: string) =>
    pg ? `substr(md5('${s.salt}${seed}' || i) || md5('${s.salt}${seed}x' || i), 1, ${bytes * 2})` : `lower(hex(randomblob(${bytes})))`;
  const customerId = (n: string) => (pg ? `'cus_${s.salt}' || lpad((${n})::text, 7, '0')` : `'cus_${s.salt}' || printf('%07d', ${n})`);
  const product = `CASE i % 5 ${s.products.map((id, p) => `WHEN ${p} THEN '${id}'`).join(' ')} END`;
  // The seed's licenses in [from, to), each with its i again (issued_at is t0 + i·step).
  const seeded = (from: number, to: number) =>
    `(SELECT l.*, (l.issued_at - ${s.t0}) / ${s.step} AS i FROM licenses l WHERE l.developer_id = '${s.developerId}'
       AND l.issued_at >= ${s.t0 + from * s.step} AND l.issued_at < ${s.t0 + to * s.step}) AS x`;

  return {
    customers: () =>
      `WITH ${series(0, s.customers, 's')}
       INSERT INTO customers (id, email, phone, created_at)
       SELECT ${customerId('i')}, 'buyer' || i || '@example.com', NULL, ${s.t0} FROM s`,

    licenses: (from: number, to: number) =>
      `WITH ${series(from, to, 's')},
       g AS (SELECT i, i % 20 AS r, ${s.t0} + i * ${s.step} AS issued FROM s),
       e AS (SELECT g.*, CASE WHEN r BETWEEN 2 AND 4 THEN issued + (${s.now} - issued) / 2
                              WHEN r BETWEEN 6 AND 8 THEN ${s.now} + (i % 365 + 1) * ${DAY}
                              WHEN r = 9 THEN issued + ${14 * DAY} END AS expires FROM g)
       INSERT INTO licenses (id, developer_id, product_id, customer_id, status, features, issued_at, expires_at,
                             license_key, key_hash, trial, expiry_announced_at)
       SELECT 'lic_' || ${hex(12, 'l')}, '${s.developerId}', ${product}, ${customerId(`i % ${s.customers}`)},
              CASE WHEN r < 2 THEN 'revoked' ELSE 'active' END, '["pro"]', issued, expires,
              'bench-lists-${s.salt}-' || i, 'bench-lists-${s.salt}-' || i, (r = 9),
              CASE WHEN expires <= ${s.now} THEN expires END
       FROM e`,

    orders: (from: number, to: number) =>
      `INSERT INTO orders (id, developer_id, customer_id, product_id, license_id, source, source_id, amount, currency,
                           processor, payment_id, processor_reference, status, created_at, refunded_at)
       SELECT 'ord_' || ${hex(12, 'o')}, developer_id, customer_id, product_id, id, 'checkout', 'cs_bl${s.salt}_' || i,
              1900 + (i % 5) * 1000, 'usd', 'stripe', 'pi_bl${s.salt}_' || i, 'cs_bl${s.salt}_' || i,
              CASE WHEN i % 20 = 0 THEN 'refunded' ELSE 'paid' END, issued_at,
              CASE WHEN i % 20 = 0 THEN issued_at + ${DAY} END
       FROM ${seeded(from, to)} WHERE i % 20 NOT IN (9, 19)`,

    activations: (from: number, to: number) =>
      `INSERT INTO activations (id, license_id, machine_fingerprint, name, created_at, last_seen_at)
       SELECT 'act_' || substr(id, 5), id, ${hex(32, 'a')}, NULL, issued_at, issued_at
       FROM ${seeded(from, to)} WHERE i % 20 BETWEEN 10 AND 15`,

    // What the application writes with each new license (the bulk rows bypass it): the seller's customers.
    customerDirectory: () =>
      `INSERT ${pg ? '' : 'OR IGNORE '}INTO developer_customers (developer_id, customer_id, email, first_seen_at)
       SELECT l.developer_id, l.customer_id, c.email, min(l.issued_at) FROM licenses l JOIN customers c ON c.id = l.customer_id
       WHERE l.developer_id = '${s.developerId}' GROUP BY l.developer_id, l.customer_id, c.email${pg ? ' ON CONFLICT DO NOTHING' : ''}`,

    // The console's rollups of the seller, from their rows: the application moves them with each
    // change (src/domain/stats-rollups.ts), and the bulk rows bypass it.
    consoleRollups: () => {
      const dev = `'${s.developerId}'`;
      return [
        ...['daily_stats', 'license_expiry_days', 'subscription_counts'].map((table) => `DELETE FROM ${table} WHERE developer_id = ${dev}`),
        `INSERT INTO daily_stats (developer_id, day, currency, new_licenses)
         SELECT developer_id, issued_at / ${DAY}, '', count(*) FROM licenses WHERE developer_id = ${dev} GROUP BY 1, 2`,
        `INSERT INTO daily_stats (developer_id, day, currency, orders, revenue, refunded)
         SELECT developer_id, created_at / ${DAY}, currency, count(*), sum(amount), sum(amount_refunded) FROM orders WHERE developer_id = ${dev} GROUP BY 1, 2, 3`,
        `INSERT INTO license_expiry_days (developer_id, day, licenses, machines)
         SELECT l.developer_id, COALESCE(l.expires_at / ${DAY}, 2147483647), count(*), sum((SELECT count(*) FROM activations a WHERE a.license_id = l.id))
         FROM licenses l WHERE l.developer_id = ${dev} AND l.status = 'active' GROUP BY 1, 2`,
        `INSERT INTO subscription_counts (developer_id, product_id, interval, subscriptions)
         SELECT developer_id, product_id, interval, count(*) FROM subscriptions WHERE developer_id = ${dev} AND status <> 'canceled' GROUP BY 1, 2, 3`,
      ];
    },

    clearOutbox: () => `DELETE FROM outgoing_events WHERE developer_id = '${s.developerId}'`,
  };
}
