import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { PostgresRateLimiter } from '../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import { bindMachine, givenLicense, T0 } from '../contracts/builders.ts';
import { FixedClock } from '../support/clock.ts';
import { dropStaleSchemas, PostgresSchemaPool } from '../support/postgres-schemas.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';

const admin = new SQL({ url: TEST_POSTGRES_URL, max: 1 });
const pools: PostgresSchemaPool[] = [];

function aPool(): PostgresSchemaPool {
  const pool = new PostgresSchemaPool();
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
afterAll(() => admin.close());

/** Rows in every table but the migrations' ledger, and whether each sequence has handed out a value. */
async function contentsOf(schema: string) {
  const tables = await admin`SELECT tablename FROM pg_tables WHERE schemaname = ${schema} AND tablename <> '__drizzle_migrations'`;
  const rows: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [{ n }] = await admin.unsafe(`SELECT count(*)::int AS n FROM "${schema}"."${tablename}"`);
    rows[tablename] = n;
  }
  const sequences = await admin`
    SELECT s.relname FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
    WHERE s.relkind = 'S' AND n.nspname = ${schema} AND s.relname <> '__drizzle_migrations_id_seq'`;
  const used: Record<string, boolean> = {};
  for (const { relname } of sequences) {
    const [{ is_called }] = await admin.unsafe(`SELECT is_called FROM "${schema}"."${relname}"`);
    used[relname] = is_called;
  }
  return { rows, used };
}

const exists = async (schema: string) => (await admin`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`).length === 1;

// Each test migrates fresh schemas: on a busy machine, as the first file of a whole run, that took over
// the runner's default 5 s once, so each says how long it may take.
describe('PostgreSQL test schemas', () => {
  test('a schema given back is handed out again with every table empty, those made at run time too, and every sequence restarted', async () => {
    const pool = aPool();
    await pool.give(await pool.take()); // emptied once before the rate limiter's table exists
    const schema = await pool.take();
    const store = await openPostgresStore(TEST_POSTGRES_URL, { schema });
    const { license } = await givenLicense(store);
    await bindMachine(store, license.id, 'machine-1', T0);
    await store.smsOutbox.add({ to: '+15551234567', body: 'code 123456', sentAt: T0 });
    const limiter = await PostgresRateLimiter.open(store.sql, schema, new FixedClock()); // its table is made at run time
    await limiter.hit('signup:127.0.0.1', 10, 60_000);
    const filled = await contentsOf(schema);
    await store.close();

    await pool.give(schema);
    const again = await pool.take();
    const emptied = await contentsOf(again);

    expect(again).toBe(schema);
    expect(filled.rows).toMatchObject({ licenses: 1, activations: 1, sms_outbox: 1, rate_limits: 1 });
    expect(Object.values(filled.used)).toContain(true);
    expect(Object.values(emptied.rows).every((n) => n === 0)).toBe(true);
    expect(Object.keys(emptied.rows).length).toBe(Object.keys(filled.rows).length);
    expect(Object.values(emptied.used).every((called) => !called)).toBe(true);
  }, 60_000);

  test('two pools of one process name their schemas apart, and closing one leaves the other', async () => {
    const first = aPool();
    const second = aPool();

    const [a, b] = await Promise.all([first.take(), second.take()]);
    await first.close();

    expect(a).not.toBe(b);
    expect(a).toContain(`_${process.pid}_`);
    expect(b).toContain(`_${process.pid}_`);
    expect([await exists(a), await exists(b)]).toEqual([false, true]);
  }, 60_000);

  test("a pool's schemas in use at the same time are distinct, and close drops those never given back", async () => {
    const pool = aPool();
    const taken = await Promise.all([pool.take(), pool.take(), pool.take()]);

    await pool.close();

    expect(new Set(taken).size).toBe(3);
    for (const schema of taken) expect(await exists(schema)).toBe(false);
  }, 60_000);

  test('the schemas of a test process that died are dropped, those of a live one kept', async () => {
    const probe = aPool();
    const mine = await probe.take();
    const dead = Bun.spawn(['true']);
    await dead.exited;
    const leftover = mine.replace(`_${process.pid}_`, `_${dead.pid}_`);
    await admin.unsafe(`CREATE SCHEMA "${leftover}"`);

    await dropStaleSchemas(admin); // what a process's first pool does before its first schema

    expect(await exists(leftover)).toBe(false);
    expect(await exists(mine)).toBe(true);
  }, 60_000);
});
