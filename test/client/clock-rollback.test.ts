import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOCK_TOLERANCE_MS } from '../../src/client/index.ts';
import { clock, DAY, fakeFetch, HOUR, json, newClient, sellerKey, T0, tempDirs, unreachable, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const VALID = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
const ROLLED_BACK = { valid: false, reason: 'network_error', offlineVerified: false, clockRollback: true };

/**
 * A client whose system clock and whose server's clock the test sets apart: the server signs its
 * answers with `serverTime`, the client reads `time`.
 */
async function setup(options: { clockToleranceMs?: number; expiresAt?: number } = {}) {
  const time = clock(T0 + 10 * DAY);
  const server = { time: T0 + 10 * DAY, up: true, signs: true };
  const net = fakeFetch((call: Call) => {
    if (!server.up) return unreachable();
    return server.signs ? seller.answer(call, VALID, { serverTime: server.time }) : json(VALID);
  });
  const cacheDir = tempDir();
  const client = newClient({ publicKeys: seller.jwks, cacheDir, fetch: net.fetch, now: time.now, ...options });
  await client.storeLicenseKey(seller.issue({ expiresAt: options.expiresAt ?? null }));
  const stored = () => JSON.parse(readFileSync(join(cacheDir, 'license.json'), 'utf8'));
  return { client, net, time, server, stored };
}

describe('the latest server time, and a clock set back behind it', () => {
  test('the cache keeps the highest server time a signed answer carried, and a new key does not reset it', async () => {
    const { client, time, server, stored } = await setup();
    await client.check({ online: true });
    server.time -= HOUR; // a server behind its own earlier answer does not lower the mark
    await client.check({ online: true });
    expect(stored().serverTime).toBe(T0 + 10 * DAY);

    time.advance(1);
    await client.storeLicenseKey(seller.issue());
    expect(stored().serverTime).toBe(T0 + 10 * DAY);
  });

  test('offline, a clock more than the tolerance (1 hour) behind answers invalid, network_error, clockRollback', async () => {
    const { client, time, server } = await setup();
    await client.check();
    server.up = false;
    time.time = T0 + 10 * DAY - CLOCK_TOLERANCE_MS - 1;

    expect(await client.check()).toEqual(ROLLED_BACK as never);
    expect(CLOCK_TOLERANCE_MS).toBe(HOUR);
  });

  test('within the tolerance the clock is believed: the cached verdict stands', async () => {
    const { client, net, time } = await setup();
    await client.check();
    time.time = T0 + 10 * DAY - CLOCK_TOLERANCE_MS;

    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: true });
    expect(net.calls).toHaveLength(1);
  });

  test('a rolled-back clock skips the 24-hour cache: a signed answer from the server is the way back', async () => {
    const { client, net, time } = await setup();
    await client.check();
    time.time = T0 + 5 * DAY; // five days back: the cache looks "fresh" to this clock

    const result = await client.check();

    expect(result).toMatchObject({ valid: true, offlineVerified: false });
    expect(result.clockRollback).toBeUndefined();
    expect(net.calls).toHaveLength(2);
  });

  test('it stays invalid until the next successful online check, whatever the rolled-back clock says about expiry', async () => {
    const { client, time, server } = await setup({ expiresAt: T0 + 11 * DAY });
    await client.check();
    server.up = false;
    time.advance(2 * DAY); // the key has expired...
    expect(await client.check()).toMatchObject({ valid: false, reason: 'expired' });
    time.time = T0 + 5 * DAY; // ...and the clock is set back before its expiry
    expect(await client.check()).toEqual(ROLLED_BACK as never);
    expect(await client.check()).toEqual(ROLLED_BACK as never);

    server.up = true;
    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: false });
  });

  test('an answer that is not signed does not end it, and carries its warning', async () => {
    const { client, time, server } = await setup();
    await client.check();
    time.time = T0;
    server.signs = false;

    expect(await client.check()).toEqual({ ...ROLLED_BACK, warning: { status: 200, code: 'unverified_answer', message: expect.stringMatching(/not signed/) } } as never);
  });

  test('clockToleranceMs sets the tolerance', async () => {
    const { client, time, server } = await setup({ clockToleranceMs: 60_000 });
    await client.check();
    server.up = false;
    time.time = T0 + 10 * DAY - 60_001;

    expect(await client.check()).toEqual(ROLLED_BACK as never);
  });
});
