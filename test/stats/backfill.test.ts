import { describe, expect, test } from 'bun:test';
import { POSTGRES_MIGRATION_LIST } from '../../src/adapters/postgres/migrations/index.ts';
import { SQLITE_MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { DAY_MS, dayLabel, dayOf } from '../../src/domain/stats.ts';
import { freshStorePerTest, postgresStores, sqliteMemoryStores } from '../contracts/stores.ts';
import { givenOrder } from '../lists/support.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { runStatement, statsByBruteForce } from './brute-force.ts';

/** The console_stats migration's statements that fill the rollups from the rows already there (and the events' license). */
const backfillOf = (migrations: { sql: string[] }[]) =>
  migrations.find((m) => m.sql.some((statement) => statement.includes('CREATE TABLE') && /[`"]daily_stats[`"]/.test(statement)))!.sql.filter((statement) => /^\s*(INSERT INTO|UPDATE) [`"]?(daily_stats|license_expiry_days|subscription_counts|outgoing_events)/.test(statement));

describe.each([
  [sqliteMemoryStores, backfillOf(SQLITE_MIGRATIONS)],
  [postgresStores, backfillOf(POSTGRES_MIGRATION_LIST)],
] as const)('the console_stats migration’s backfill on %#', (factory, backfill) => {
  const opened = freshStorePerTest(factory);

  test('rebuilds the rollups and the events’ license from the rows a store held before it', async () => {
    expect(backfill).toHaveLength(5);
    const { store } = opened();
    const api = testApi({ deps: depsFor(store) });
    const s = await seller(api);
    const kept = (await s.grant({ email: 'ann@example.com' })).license;
    await s.grant({ email: 'bob@example.com', expiresAt: api.clock.now() + DAY_MS });
    const revoked = (await s.grant({ email: 'cat@example.com' })).license;
    await api.call('POST', `/licenses/${revoked.id}/revoke`, { key: s.apiKey });
    api.clock.advance(DAY_MS);
    const order = await givenOrder(api, kept, s.id, { amount: 3_000 });
    await api.call('POST', `/developers/orders/${order.id}/refund`, { key: s.apiKey, body: { amount: 1_000 } });
    const day = dayOf(api.clock.now());
    const before = (await api.call('GET', `/developers/stats?from=${dayLabel(day - 1)}&to=${dayLabel(day)}`, { key: s.apiKey })).body;

    // As a store from before the migration: no rollups, events without their license.
    for (const table of ['daily_stats', 'license_expiry_days', 'subscription_counts']) await runStatement(store, `DELETE FROM ${table}`);
    await runStatement(store, 'UPDATE outgoing_events SET license_id = NULL');
    for (const statement of backfill) await runStatement(store, statement);

    const after = (await api.call('GET', `/developers/stats?from=${dayLabel(day - 1)}&to=${dayLabel(day)}`, { key: s.apiKey })).body;
    const expected = await statsByBruteForce(store, s.id, day - 1, day, api.clock.now());
    expect(after.series).toEqual(expected.series);
    expect(after.totals).toEqual(expected.totals);
    expect(after).toEqual(before);
    const events = await api.call('GET', `/developers/events?licenseId=${kept.id}`, { key: s.apiKey });
    expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(['order.refunded', 'order.completed', 'license.created']);
  });
});
