import { describe, expect, test } from 'bun:test';
import { DAY_MS, PERPETUAL_DAY } from '../../src/domain/stats.ts';
import { licenseMoves, licenseRollups, machineRollups, mergeRollups, orderRollups, subscriptionRollups, type LicenseFigures } from '../../src/domain/stats-rollups.ts';

const license: LicenseFigures = { developerId: 'dev_1', issuedAt: 10 * DAY_MS + 5, storedStatus: 'active', expiresAt: null, machines: 2 };
const order = { developerId: 'dev_1', createdAt: 3 * DAY_MS, currency: 'eur', amount: 1_900, amountRefunded: 0 };
const subscription = { developerId: 'dev_1', productId: 'prod_1', interval: 'month' as const, status: 'active' as const };

describe('the console rollups each change moves', () => {
  test('a new active license: one issued that day, and itself with its machines on its expiry day (perpetual: the far day)', () => {
    expect(licenseRollups(null, license)).toEqual([
      { table: 'dailyStats', key: { developerId: 'dev_1', day: 10, currency: '' }, add: { newLicenses: 1, orders: 0, revenue: 0, refunded: 0 } },
      { table: 'licenseExpiryDays', key: { developerId: 'dev_1', day: PERPETUAL_DAY }, add: { licenses: 1, machines: 2 } },
    ]);
  });

  test('a revocation takes the license and its machines off its expiry day; the day it was issued keeps it', () => {
    const revoked = { ...license, storedStatus: 'revoked' as const };
    expect(licenseRollups(license, revoked)).toEqual([{ table: 'licenseExpiryDays', key: { developerId: 'dev_1', day: PERPETUAL_DAY }, add: { licenses: -1, machines: -2 } }]);
    expect(licenseRollups(null, revoked)).toHaveLength(1); // a revoked license is issued, never active
  });

  test('a renewal moves it from one expiry day to the next; a change within the same day, or of nothing counted, moves nothing', () => {
    const ending = { ...license, expiresAt: 20 * DAY_MS };
    expect(licenseRollups(ending, { ...ending, expiresAt: 50 * DAY_MS })).toEqual([
      { table: 'licenseExpiryDays', key: { developerId: 'dev_1', day: 20 }, add: { licenses: -1, machines: -2 } },
      { table: 'licenseExpiryDays', key: { developerId: 'dev_1', day: 50 }, add: { licenses: 1, machines: 2 } },
    ]);
    expect(licenseRollups(ending, { ...ending, expiresAt: 20 * DAY_MS + 3_600_000 })).toEqual([]);
    expect(licenseMoves(ending, { ...ending, expiresAt: 20 * DAY_MS + 1 })).toBe(false);
    expect(licenseMoves(ending, { ...ending, expiresAt: null })).toBe(true);
  });

  test('machines count only on an active license', () => {
    expect(machineRollups(license, 1)).toEqual([{ table: 'licenseExpiryDays', key: { developerId: 'dev_1', day: PERPETUAL_DAY }, add: { licenses: 0, machines: 1 } }]);
    expect(machineRollups({ ...license, storedStatus: 'revoked' }, -1)).toEqual([]);
    expect(machineRollups(license, 0)).toEqual([]);
  });

  test('an order adds its amount on its day in its currency; a refund adds only what went back', () => {
    expect(orderRollups(null, order)).toEqual([{ table: 'dailyStats', key: { developerId: 'dev_1', day: 3, currency: 'eur' }, add: { newLicenses: 0, orders: 1, revenue: 1_900, refunded: 0 } }]);
    expect(orderRollups(order, { ...order, amountRefunded: 500 })).toEqual([{ table: 'dailyStats', key: { developerId: 'dev_1', day: 3, currency: 'eur' }, add: { newLicenses: 0, orders: 0, revenue: 0, refunded: 500 } }]);
    expect(orderRollups(order, null)[0]!.add).toEqual({ newLicenses: 0, orders: -1, revenue: -1_900, refunded: 0 });
  });

  test('a subscription counts until it is canceled; a renewal or past_due moves nothing', () => {
    expect(subscriptionRollups(null, subscription)).toEqual([{ table: 'subscriptionCounts', key: { developerId: 'dev_1', productId: 'prod_1', interval: 'month' }, add: { subscriptions: 1 } }]);
    expect(subscriptionRollups(subscription, { ...subscription, status: 'past_due' })).toEqual([]);
    expect(subscriptionRollups(subscription, { ...subscription, status: 'canceled' })[0]!.add).toEqual({ subscriptions: -1 });
    expect(subscriptionRollups({ ...subscription, status: 'canceled' }, { ...subscription, status: 'canceled' })).toEqual([]);
  });

  test('deltas to one row are added up, rows are in one order whatever the input order, and zeros are dropped', () => {
    const a = licenseRollups(null, license);
    const b = machineRollups(license, 3);
    const merged = mergeRollups([...b, ...a]);
    expect(merged).toEqual(mergeRollups([...a, ...b]));
    expect(merged[1]!.add).toEqual({ licenses: 1, machines: 5 });
    expect(mergeRollups([...machineRollups(license, 1), ...machineRollups(license, -1)])).toEqual([]);
  });
});
