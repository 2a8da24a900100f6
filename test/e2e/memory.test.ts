import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { client, spawnService, tempDir, untilHealthy, type Call, type Spawned } from './support.ts';

describe('the real process on a throw-away store (sqlite::memory:), in an empty working folder', () => {
  // The default store is ./data/licensing.db relative to the working folder: run in an empty one to see nothing lands there.
  const cwd = tempDir();
  let service: Spawned;
  let call: Call;

  beforeAll(async () => {
    service = await spawnService({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' }, { cwd: cwd.path, inheritEnv: false });
    await untilHealthy(service);
    call = client(service.url);
  });

  afterAll(async () => {
    service.kill('SIGKILL');
    await service.exited;
    cwd.remove();
  });

  test('starts, answers health and signs a developer up without writing a data folder', async () => {
    const health = await call('GET', '/health');
    const signup = await call('POST', '/developers/signup', { body: { email: 'memory@example.com', name: 'Memory' } });

    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(signup.status).toBe(201);
    expect(signup.body.apiKey).toStartWith('sk_');
    expect(readdirSync(cwd.path)).toEqual([]);
  });

  test('the process stops cleanly on SIGTERM', async () => {
    service.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(readdirSync(cwd.path)).toEqual([]);
  });
});
