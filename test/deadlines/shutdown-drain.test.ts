import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server-process.ts';

/** The real server process, stopped by SIGTERM with a 2-second drain. */
describe('SIGTERM drains before the server stops', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drain-'));
  let server: RunningServer | undefined;

  afterAll(async () => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('ready answers 503 at once, live and the API keep answering for the drain period, then exit 0', async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, SHUTDOWN_DRAIN_SECONDS: '2' });
    const get = (path: string) => fetch(`${server!.url}/v1${path}`);
    expect((await get('/health/ready')).status).toBe(200);
    expect(await (await get('/health')).json()).toEqual({ status: 'ok' });

    const signalled = performance.now();
    server.kill('SIGTERM');
    let ready: Response | null = null;
    for (let i = 0; i < 40; i++) {
      ready = await get('/health/ready');
      if (ready.status === 503) break;
      await Bun.sleep(25);
    }
    expect(ready?.status).toBe(503);
    expect(await ready!.json()).toEqual({ error: { code: 'unavailable', message: 'The instance is shutting down.', requestId: expect.any(String) } });
    expect((await get('/health')).status).toBe(503);
    // Still serving while load balancers take it out of rotation.
    expect((await get('/health/live')).status).toBe(200);
    const signup = await fetch(`${server.url}/v1/developers/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'drain@example.com', name: 'Drain' }) });
    expect(signup.status).toBe(201);

    expect(await server.exited).toBe(0);
    expect(performance.now() - signalled).toBeGreaterThan(1_500);
    const lines = server.stdout().trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.find((line) => line.msg === 'stopping')).toMatchObject({ signal: 'SIGTERM', drainSeconds: 2 });
    expect(lines.at(-1).msg).toBe('stopped');
    server = undefined;
  });
});
