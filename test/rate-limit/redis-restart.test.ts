import { afterEach, describe, expect, test } from 'bun:test';
import { spawn, type Subprocess } from 'bun';
import { RedisRateLimiter } from '../../src/adapters/rate-limit/redis-rate-limiter.ts';
import { FixedClock } from '../support/clock.ts';
import { freePort } from '../support/server-process.ts';
import { MINUTE, unique } from './limiters.ts';

const REDIS_SERVER = Bun.which('redis-server');

/** A throw-away redis-server of our own (nothing persisted), so restarting it disturbs no one. */
async function privateRedis(port: number): Promise<Subprocess> {
  const proc = spawn([REDIS_SERVER!, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdout: 'ignore', stderr: 'ignore' });
  for (let i = 0; i < 200; i++) {
    try {
      (await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } })).end();
      return proc;
    } catch {
      await Bun.sleep(25);
    }
  }
  proc.kill();
  throw new Error('redis-server did not start');
}

describe.skipIf(!REDIS_SERVER)('a Redis that restarts', () => {
  const servers: Subprocess[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.kill('SIGKILL');
      await server.exited;
    }
  });

  test('after a restart (counts and loaded script gone) the limiter reconnects, sends its script again and counts afresh', async () => {
    const port = await freePort();
    servers.push(await privateRedis(port));
    const clock = new FixedClock();
    const limiter = await RedisRateLimiter.connect(`redis://127.0.0.1:${port}`, clock);
    const key = `k_${unique()}`;
    const before = [await limiter.hit(key, 2, MINUTE), await limiter.hit(key, 2, MINUTE)];

    servers[0]!.kill('SIGKILL');
    await servers[0]!.exited;
    servers.push(await privateRedis(port));
    clock.advance(1_000);
    const after = await limiter.hit(key, 2, MINUTE).finally(() => limiter.close());

    expect(before.map((v) => v.remaining)).toEqual([1, 0]);
    expect([after.allowed, after.remaining]).toEqual([true, 1]);
  });
});
