import { describe, expect, test } from 'bun:test';
import { LockEpisode, StuckBehindLockError } from '../../src/adapters/postgres/lock-episode.ts';
import { PoolGate, PoolWaitTimeoutError } from '../../src/adapters/postgres/pool-gate.ts';

/** Work that finishes when the test says so. */
function held<T>(value: T) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<T>((resolve, reject) => {
    finish = () => resolve(value);
    fail = reject;
  });
  return { work: () => done, finish, fail };
}

test('at most `capacity` in flight; the others wait in line and are admitted first come, first served', async () => {
  const gate = new PoolGate(2, 5_000);
  const a = held('a');
  const b = held('b');
  const order: string[] = [];
  const first = gate.run(a.work);
  const second = gate.run(b.work);
  const third = gate.run(async () => (order.push('c'), 'c'));
  const fourth = gate.run(async () => (order.push('d'), 'd'));
  expect(gate.usage()).toEqual({ inUse: 2, waiting: 2 });
  b.finish();
  expect(await second).toBe('b');
  expect(await third).toBe('c');
  a.fail(new Error('a broke'));
  await expect(first).rejects.toThrow('a broke');
  expect(await fourth).toBe('d');
  expect(order).toEqual(['c', 'd']);
  expect(gate.usage()).toEqual({ inUse: 0, waiting: 0 });
});

test('a waiter past its wait is refused with PoolWaitTimeoutError, in order, by one timer; one admitted in time is not', async () => {
  const gate = new PoolGate(1, 80);
  const blocker = held('x');
  const running = gate.run(blocker.work);
  const early = gate.run(async () => 'early');
  await Bun.sleep(40);
  const late = gate.run(async () => 'late');
  const started = performance.now();
  await expect(early).rejects.toBeInstanceOf(PoolWaitTimeoutError);
  expect(gate.usage()).toEqual({ inUse: 1, waiting: 1 });
  await expect(late).rejects.toThrow('No database connection became free within 80 ms.');
  // The second waiter was refused at its own deadline (about 40 ms after the first's), not at the first's.
  expect(performance.now() - started).toBeGreaterThanOrEqual(30);
  expect(gate.usage()).toEqual({ inUse: 1, waiting: 0 });
  const admitted = gate.run(async () => 'admitted');
  blocker.finish();
  expect(await running).toBe('x');
  expect(await admitted).toBe('admitted');
  expect(gate.usage()).toEqual({ inUse: 0, waiting: 0 });
});

test('work that throws before it returns a promise frees its slot', async () => {
  const gate = new PoolGate(1, 1_000);
  await expect(gate.run(() => { throw new Error('no query'); })).rejects.toThrow('no query');
  expect(gate.usage()).toEqual({ inUse: 0, waiting: 0 });
  expect(await gate.run(async () => 1)).toBe(1);
});

test('a thousand callers behind one held slot: all refused in time, none left waiting, the slot still usable', async () => {
  const gate = new PoolGate(1, 50);
  const blocker = held('x');
  const running = gate.run(blocker.work);
  const waiting = Array.from({ length: 1_000 }, (_, i) => gate.run(async () => i));
  const outcomes = await Promise.allSettled(waiting);
  expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof PoolWaitTimeoutError)).toBe(true);
  expect(gate.usage()).toEqual({ inUse: 1, waiting: 0 });
  blocker.finish();
  await running;
  expect(await gate.run(async () => 'free')).toBe('free');
});

describe('behind a lock (a LockEpisode on the gate)', () => {
  const lockTimeout = () => Object.assign(new Error('canceling statement due to lock timeout'), { code: 'ERR_POSTGRES_SERVER_ERROR', errno: '55P03' });

  test('once a statement fails on its lock deadline, a read asked longer ago than one wait is answered at once; its slot stays held until it ends', async () => {
    const gate = new PoolGate(4, 5_000, new LockEpisode(60));
    const first = held('first');
    const queued = held('queued');
    const firstRun = gate.run(first.work, true);
    const read = gate.run(queued.work, true).catch((error: unknown) => error);
    await Bun.sleep(80);
    first.fail(lockTimeout());
    await expect(firstRun).rejects.toThrow('lock timeout');
    expect(await read).toBeInstanceOf(StuckBehindLockError);
    expect(gate.usage()).toEqual({ inUse: 1, waiting: 0 });
    queued.finish();
    await Bun.sleep(0);
    expect(gate.usage()).toEqual({ inUse: 0, waiting: 0 });
  });

  test('a read asked during the episode is answered one wait after it was asked, while statements keep failing on the lock', async () => {
    const gate = new PoolGate(4, 5_000, new LockEpisode(60));
    const first = held('first');
    const firstRun = gate.run(first.work, true).catch(() => null);
    first.fail(lockTimeout());
    await firstRun;
    const stuck = held('stuck');
    const other = held('other');
    const asked = performance.now();
    const read = gate.run(stuck.work, true).catch((error: unknown) => error);
    const otherRun = gate.run(other.work).catch(() => null);
    // Another statement reaching its lock deadline meanwhile prolongs the episode, as on a real pool.
    await Bun.sleep(30);
    other.fail(lockTimeout());
    await otherRun;
    expect(await read).toBeInstanceOf(StuckBehindLockError);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(50);
    stuck.finish();
  });

  test('a write is never answered early, and without an episode a slow read runs to its end', async () => {
    const gate = new PoolGate(4, 5_000, new LockEpisode(30));
    const slow = held('slow read');
    const slowRun = gate.run(slow.work, true);
    await Bun.sleep(80);
    slow.finish();
    expect(await slowRun).toBe('slow read');

    const first = held('first');
    const write = held('write');
    const firstRun = gate.run(first.work, true);
    const writeRun = gate.run(write.work);
    await Bun.sleep(50);
    first.fail(lockTimeout());
    await expect(firstRun).rejects.toThrow('lock timeout');
    await Bun.sleep(50);
    write.finish();
    expect(await writeRun).toBe('write');
  });
});
