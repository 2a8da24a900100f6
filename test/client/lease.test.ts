import { afterAll, describe, expect, test } from 'bun:test';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { ApiError, LicenseClient } from '../../src/client/index.ts';
import { leasing, servedApi } from '../leases/support.ts';
import { tempDirs } from './support.ts';

/** client.lease() against the service over real HTTP, the server on a fixed clock and the heartbeats run by hand. */
const store = openSqliteStore(':memory:');
const api = servedApi(store);
const tempDir = tempDirs();
afterAll(async () => {
  api.stop();
  await store.close();
});

/** A hand-run scheduler: the delays asked for, and the pending run to fire. */
function manualTimers() {
  const asked: number[] = [];
  let pending: (() => void) | null = null;
  return {
    asked,
    schedule: (run: () => void, ms: number) => {
      asked.push(ms);
      pending = run;
      return { cancel: () => (pending = null) };
    },
    get pending() {
      return pending !== null;
    },
    /** Fires the pending heartbeat and waits for it to settle (it schedules the next one). */
    async fire() {
      const run = pending!;
      pending = null;
      const before = asked.length;
      run();
      for (let i = 0; i < 200 && asked.length === before; i++) await Bun.sleep(5);
    },
  };
}

async function machine(world: Awaited<ReturnType<typeof leasing>>, fingerprint: string, fetcher: typeof fetch = fetch) {
  const jwks = (await api.call('GET', `/developers/${world.s.id}/jwks.json`)).body;
  const client = new LicenseClient({ baseUrl: `${api.url}/v1/`, apiKey: world.s.publishableKey, productId: world.s.product.id, publicKeys: jwks, cacheDir: tempDir(), fingerprint, fetch: fetcher });
  await client.storeLicenseKey(world.licenseKey);
  return client;
}

describe('client.lease()', () => {
  test('checks out, heartbeats at half the period with jitter, and release() frees the seat (idempotent)', async () => {
    const world = await leasing(api, { maxLeases: 1, leaseSeconds: 600 });
    const timers = manualTimers();
    const lease = await (await machine(world, 'fp-one')).lease({ schedule: timers.schedule, random: () => 0.5, releaseOnExit: false });
    expect(lease.id).toStartWith('lease_');
    expect(timers.asked).toEqual([300_000 * 0.9]);
    api.clock.advance(270_000);
    await timers.fire();
    expect(lease.expiresAt).toBe(api.clock.now() + 600_000);
    expect(timers.asked).toHaveLength(2);
    expectError(await world.checkout('fp-two'), 409);
    expect(await lease.release()).toBe(true);
    expect(await lease.release()).toBe(true);
    expect(lease.ended).toBe(true);
    expect(timers.pending).toBe(false);
    expect((await world.checkout('fp-two')).status).toBe(201);
  });

  test('a full license: lease() throws ApiError 409 lease_limit', async () => {
    const world = await leasing(api, { maxLeases: 1 });
    await world.checkout('someone-else');
    const error = await (await machine(world, 'fp-late')).lease({ releaseOnExit: false }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'lease_limit', details: { live: 1, maxLeases: 1 } });
  });

  test('a failing heartbeat never throws: onError hears it, the lease is kept and tried again sooner', async () => {
    const world = await leasing(api, { maxLeases: 1, leaseSeconds: 600 });
    let down = false;
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (down) throw new TypeError('connection refused');
      return fetch(input, init);
    }) as typeof fetch;
    const timers = manualTimers();
    const errors: Error[] = [];
    const lease = await (await machine(world, 'fp-flaky', flaky)).lease({
      schedule: timers.schedule,
      random: () => 0,
      releaseOnExit: false,
      onError: (e) => {
        errors.push(e);
        throw new Error('a throwing onError changes nothing');
      },
    });
    down = true;
    await timers.fire();
    expect(errors).toHaveLength(1);
    expect(lease.ended).toBe(false);
    expect(timers.asked[1]).toBe(75_000);
    down = false;
    api.clock.advance(100_000);
    await timers.fire();
    expect(lease.expiresAt).toBe(api.clock.now() + 600_000);
    expect(errors).toHaveLength(1);
    await lease.release();
  });

  test('a lease that expired (410) is checked out again under a new id, and onError is told', async () => {
    const world = await leasing(api, { maxLeases: 1, leaseSeconds: 60 });
    const timers = manualTimers();
    const errors: Error[] = [];
    const lease = await (await machine(world, 'fp-sleepy')).lease({ schedule: timers.schedule, releaseOnExit: false, onError: (e) => errors.push(e) });
    const first = lease.id;
    api.clock.advance(61_000); // the machine slept through its lease
    await timers.fire();
    expect(errors.map((e) => (e as ApiError).code)).toEqual(['lease_expired']);
    expect(lease.id).not.toBe(first);
    expect(lease.expiresAt).toBe(api.clock.now() + 60_000);
    await lease.release();
  });

  test('a seat taken meanwhile: the re-checkout’s lease_limit goes to onError too, and it keeps trying', async () => {
    const world = await leasing(api, { maxLeases: 1, leaseSeconds: 60 });
    const timers = manualTimers();
    const errors: string[] = [];
    const lease = await (await machine(world, 'fp-lost')).lease({ schedule: timers.schedule, releaseOnExit: false, onError: (e) => errors.push((e as ApiError).code) });
    api.clock.advance(60_000);
    expect((await world.checkout('thief')).status).toBe(201);
    await timers.fire();
    expect(errors).toEqual(['lease_expired', 'lease_limit']);
    expect(timers.pending).toBe(true);
    await lease.release();
  });
});

describe('released on the way out', () => {
  /** The app of lease-holder.ts as its own process, holding a lease of `world`'s license. */
  async function holder(world: Awaited<ReturnType<typeof leasing>>, fingerprint: string, hold: 'forever' | 'until-done', borrowHours = '') {
    const jwks = (await api.call('GET', `/developers/${world.s.id}/jwks.json`)).body;
    const env = { ...process.env, BASE_URL: `${api.url}/v1/`, API_KEY: world.s.publishableKey, PRODUCT_ID: world.s.product.id, JWKS: JSON.stringify(jwks), CACHE_DIR: tempDir(), FINGERPRINT: fingerprint, LICENSE_KEY: world.licenseKey, HOLD: hold, BORROW_HOURS: borrowHours };
    const proc = Bun.spawn(['bun', 'run', `${import.meta.dir}/lease-holder.ts`], { env, stdout: 'pipe', stderr: 'pipe' });
    const reader = proc.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toStartWith('held lease_');
    return proc;
  }
  const live = async (world: Awaited<ReturnType<typeof leasing>>) => (await api.call('GET', `/licenses/${world.license.id}/leases`, { key: world.s.apiKey })).body.live.length;

  test('SIGTERM and SIGINT: the lease is released, then the process ends by the signal', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const world = await leasing(api, { maxLeases: 1 });
      const proc = await holder(world, `fp-${signal}`, 'forever');
      expect(await live(world)).toBe(1);
      proc.kill(signal);
      await proc.exited;
      expect(proc.signalCode).toBe(signal);
      expect(await live(world)).toBe(0);
    }
  });

  test('an app that simply ends (beforeExit) releases its lease', async () => {
    const world = await leasing(api, { maxLeases: 1 });
    const proc = await holder(world, 'fp-done', 'until-done');
    expect(await proc.exited).toBe(0);
    expect(await live(world)).toBe(0);
  });

  test('a borrowed lease is not released when the app ends: it is meant for the time offline', async () => {
    const world = await leasing(api, { maxLeases: 1, maxBorrowHours: 24 });
    const proc = await holder(world, 'fp-borrower', 'until-done', '24');
    expect(await proc.exited).toBe(0);
    expect(await live(world)).toBe(1);
  });

  test('a killed app (SIGKILL) leaves its lease to expire after leaseSeconds', async () => {
    const world = await leasing(api, { maxLeases: 1, leaseSeconds: 60 });
    const proc = await holder(world, 'fp-killed', 'forever');
    proc.kill('SIGKILL');
    await proc.exited;
    expect(await live(world)).toBe(1);
    api.clock.advance(60_000);
    expect(await live(world)).toBe(0);
    expect((await world.checkout('next')).status).toBe(201);
  });
});

describe('borrowing: a lease for offline use, as a signed token', () => {
  test('verified with no network; a flipped byte, another machine, another seller’s keys, or past its end: refused with the reason', async () => {
    const world = await leasing(api, { maxLeases: 2, maxBorrowHours: 24 });
    const lease = await (await machine(world, 'fp-plane')).lease({ borrowHours: 24, releaseOnExit: false, schedule: () => ({ cancel() {} }) });
    expect(lease.token).toBeString();
    expect(lease.expiresAt).toBe(api.clock.now() + 24 * 3_600_000);
    const jwks = (await api.call('GET', `/developers/${world.s.id}/jwks.json`)).body;
    let now = api.clock.now();
    const offline = (fingerprint: string, publicKeys = jwks) =>
      new LicenseClient({ baseUrl: 'http://127.0.0.1:9/v1/', apiKey: world.s.publishableKey, productId: world.s.product.id, publicKeys, cacheDir: tempDir(), fingerprint, now: () => now, fetch: (async () => { throw new TypeError('offline'); }) as unknown as typeof fetch });
    const check = await offline('fp-plane').verifyLeaseToken(lease.token!);
    expect(check).toMatchObject({ ok: true, lease: { id: lease.id, machineFingerprint: 'fp-plane', productId: world.s.product.id, expiresAt: lease.expiresAt } });
    const [h, p, sig] = lease.token!.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect(await offline('fp-plane').verifyLeaseToken(flipped)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await offline('fp-other').verifyLeaseToken(lease.token!)).toMatchObject({ ok: false, reason: 'another_machine' });
    const stranger = await leasing(api);
    const strangerKeys = (await api.call('GET', `/developers/${stranger.s.id}/jwks.json`)).body;
    expect(await offline('fp-plane', strangerKeys).verifyLeaseToken(lease.token!)).toMatchObject({ ok: false, reason: 'untrusted_key' });
    expect(await offline('fp-plane').verifyLeaseToken('not.a.token')).toMatchObject({ ok: false, reason: 'malformed' });
    now = lease.expiresAt;
    expect(await offline('fp-plane').verifyLeaseToken(lease.token!)).toMatchObject({ ok: false, reason: 'expired' });
  });
});

describe('releasing a borrowed lease', () => {
  test('before its end: release() resolves false (the service answers 409 lease_borrowed) and the seat stays taken', async () => {
    const world = await leasing(api, { maxLeases: 1, maxBorrowHours: 24 });
    const lease = await (await machine(world, 'fp-borrowed')).lease({ borrowHours: 24, schedule: () => ({ cancel() {} }) });
    expect(await lease.release()).toBe(false);
    expect(lease.ended).toBe(true);
    expect((await world.checkout('fp-next')).body.error.code).toBe('lease_limit');
  });
});

function expectError(reply: { status: number }, status: number) {
  expect(reply.status).toBe(status);
}
