import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { openPostgresStore, type PostgresStore } from '../../src/adapters/postgres/postgres-store.ts';
import { consoleSignIn } from '../support/console.ts';
import { FixedClock } from '../support/clock.ts';
import { depsFor } from '../support/deps.ts';
import { seller, testApi, type Reply } from '../support/http.ts';
import { testSchemas } from '../support/postgres-schemas.ts';
import { TEST_POSTGRES_URL } from '../support/postgres-url.ts';
import { world, type World } from '../http/fixtures.ts';

/**
 * 200 concurrent calls of each write route added for issues 20 to 22, on PostgreSQL: none answers
 * 5xx, and what the store holds afterwards is what one caller at a time would have left (the limit
 * decided by the store, one event per change). The pool waits as long as it takes: 200 requests at
 * once on a busy machine would otherwise be shed (503) by design.
 */
const BURST = 200;
const schemas = testSchemas();
let schema: string;
let store: PostgresStore;
let w: World;

beforeAll(async () => {
  schema = await schemas.take();
  store = await openPostgresStore(TEST_POSTGRES_URL, { schema, poolWaitMs: 60_000 });
  w = await world(testApi({ deps: depsFor(store, new FixedClock()) }));
}, 60_000);

afterAll(async () => {
  await store.close();
  await schemas.give(schema);
});

const burst = (call: (i: number) => Promise<Reply>) => Promise.all(Array.from({ length: BURST }, (_, i) => call(i)));
/** How many answers had each status, e.g. { 201: 3, 409: 197 }. */
const tally = (replies: Reply[]) => replies.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
const codes = (replies: Reply[], status: number) => [...new Set(replies.filter((r) => r.status === status).map((r) => r.body.error.code))];

describe(`${BURST} concurrent calls on PostgreSQL`, () => {
  // Each burst a minute after the one before: holder calls count against the license per minute (600), and the bursts share one license.
  beforeEach(() => w.api.clock.advance(61_000));

  test('PUT /licenses/:id/lease-terms, then POST /licenses/leases from 200 machines: the seats the terms allow, no more', async () => {
    const terms = await burst(() => w.api.call('PUT', `/licenses/${w.license.id}/lease-terms`, { key: w.mine.apiKey, body: { maxLeases: 3, leaseSeconds: null, maxBorrowHours: null } }));
    const leases = await burst((i) => w.api.call('POST', '/licenses/leases', { key: w.mine.publishableKey, body: { licenseKey: w.licenseKey, machineFingerprint: `fp-burst-${i}` } }));

    expect(tally(terms)).toEqual({ 200: BURST });
    // The table's machine holds one of the 3 seats already: 2 are left; past 120 a minute the license's checkouts are 429.
    expect(tally(leases)[201]).toBe(2);
    expect(Object.keys(tally(leases)).sort()).toEqual(['201', '409', '429']);
    expect(codes(leases, 409)).toEqual(['lease_limit']);
    const held = await w.api.call('GET', `/licenses/${w.license.id}/leases`, { key: w.mine.apiKey });
    expect(held.body.live).toHaveLength(3);
  }, 60_000);

  test('heartbeat and release of one lease: every heartbeat answered, one release frees it', async () => {
    const beats = await burst(() => w.api.call('POST', `/licenses/leases/${w.leaseId}/heartbeat`, { key: w.mine.publishableKey, body: { licenseKey: w.licenseKey } }));
    const releases = await burst(() => w.api.call('POST', `/licenses/leases/${w.leaseId}/release`, { key: w.mine.publishableKey, body: { licenseKey: w.licenseKey } }));

    expect(Object.keys(tally(beats)).every((s) => s === '200' || s === '429')).toBe(true);
    expect(tally(beats)[200]).toBeGreaterThan(0);
    // The heartbeats counted against the license this minute too: past 600, 429.
    expect(Object.keys(tally(releases)).every((s) => s === '200' || s === '429')).toBe(true);
    expect(releases.filter((r) => r.body.released === true)).toHaveLength(1);
  }, 60_000);

  test('POST /licenses/leases borrowing from 200 machines, each releasing what it got at once: never more borrowed tokens than seats', async () => {
    const s = await seller(w.api);
    await w.api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxLeases: 3, maxBorrowHours: 48 } });
    const { license, licenseKey } = await s.grant();
    const borrowAndRelease = async (i: number) => {
      const borrowed = await w.api.call('POST', '/licenses/leases', { key: s.publishableKey, body: { licenseKey, machineFingerprint: `fp-borrow-${i}`, borrowHours: 48 } });
      const released = borrowed.status === 201 ? await w.api.call('POST', `/licenses/leases/${borrowed.body.lease.id}/release`, { key: s.publishableKey, body: { licenseKey } }) : undefined;
      return { borrowed, released };
    };

    const replies = await Promise.all(Array.from({ length: BURST }, (_, i) => borrowAndRelease(i)));

    const tokens = replies.filter((r) => typeof r.borrowed.body.token === 'string');
    expect(tokens).toHaveLength(3);
    expect(tokens.map((r) => r.released!.body.error.code)).toEqual(['lease_borrowed', 'lease_borrowed', 'lease_borrowed']);
    // Past 120 checkouts a minute the license's are 429; none is 5xx.
    expect(Object.keys(tally(replies.map((r) => r.borrowed))).sort()).toEqual(['201', '409', '429']);
    expect(codes(replies.map((r) => r.borrowed), 409)).toEqual(['lease_limit']);
    const held = await w.api.call('GET', `/licenses/${license.id}/leases`, { key: s.apiKey });
    expect(held.body.live).toHaveLength(3);
  }, 60_000);

  test('POST /licenses/machine-file and the buyer’s POST /customer/licenses/:id/machine-file: exactly 10 files a license, the rest 429', async () => {
    const holder = await burst(() => w.api.call('POST', '/licenses/machine-file', { key: w.mine.publishableKey, body: { licenseKey: w.licenseKey, machineFingerprint: 'fp-table' } }));
    const buyer = await burst(() => w.api.call('POST', `/customer/licenses/${w.customer.license.id}/machine-file`, { headers: w.customer.auth, body: { licenseKey: w.customer.license.licenseKey, machineFingerprint: w.customer.device } }));

    expect(tally(holder)).toEqual({ 201: 10, 429: BURST - 10 });
    expect(tally(buyer)).toEqual({ 201: 10, 429: BURST - 10 });
    const listed = await w.api.call('GET', `/licenses/${w.license.id}/machine-files?limit=100`, { key: w.mine.apiKey });
    expect(listed.body.data).toHaveLength(10);
  }, 60_000);

  test('PUT /licenses/:id/entitlements with one set: one new key, one license.updated', async () => {
    const replies = await burst(() => w.api.call('PUT', `/licenses/${w.license.id}/entitlements`, { key: w.mine.apiKey, body: { entitlements: ['burst'] } }));

    expect(tally(replies)).toEqual({ 200: BURST });
    expect(new Set(replies.map((r) => r.body.licenseKey)).size).toBe(1);
    const events = await w.api.call('GET', `/developers/events?licenseId=${w.license.id}&limit=100`, { key: w.mine.apiKey });
    expect(events.body.data.filter((e: { type: string }) => e.type === 'license.updated')).toHaveLength(1);
  }, 60_000);

  test('the buyer’s cancel of one subscription, and card pages: one change, at most 10 pages', async () => {
    const cancels = await burst(() => w.api.call('POST', `/customer/subscriptions/${w.customer.subscriptionId}/cancel`, { headers: w.customer.auth }));
    const cards = await burst(() => w.api.call('POST', '/customer/card', { headers: w.customer.auth, body: { subscriptionId: w.customer.subscriptionId } }));

    expect(Object.keys(tally(cancels)).every((s) => s === '200' || s === '409')).toBe(true);
    expect(tally(cancels)[200]).toBeGreaterThan(0);
    const listed = await w.api.call('GET', '/customer/subscriptions', { headers: w.customer.auth });
    expect(listed.body.data.find((s: { id: string }) => s.id === w.customer.subscriptionId)).toMatchObject({ cancelAtPeriodEnd: true });
    expect(tally(cards)).toEqual({ 200: 10, 429: BURST - 10 });
  }, 60_000);

  test('console: sign-in codes for one e-mail, passkey ceremonies, revoke-all and logout of one session', async () => {
    const email = `burst-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const dev = await seller(w.api, email);
    const login = await consoleSignIn(w.api.call, email);
    const codesAsked = await burst(() => w.api.call('POST', '/developers/login', { body: { email } }));
    const ceremonies = await burst(() => w.api.call('POST', '/developers/passkeys/registration/options', { headers: login.headers }));
    const revokeAll = await burst(() => w.api.call('POST', '/developers/console/sessions/revoke-all', { key: dev.apiKey }));
    const logouts = await burst(() => w.api.call('POST', '/developers/logout', { headers: login.headers }));

    expect(Object.keys(tally(codesAsked)).sort()).toEqual(['202', '429']);
    expect(tally(codesAsked)[202]).toBeLessThanOrEqual(3);
    expect(tally(ceremonies)).toEqual({ 200: 30, 429: BURST - 30 });
    expect(tally(revokeAll)).toEqual({ 204: BURST });
    expect(Object.keys(tally(logouts)).every((s) => Number(s) < 500)).toBe(true);
    const sessions = await w.api.call('GET', '/developers/console/sessions', { key: dev.apiKey });
    expect(sessions.body.data).toEqual([]);
  }, 60_000);
});
