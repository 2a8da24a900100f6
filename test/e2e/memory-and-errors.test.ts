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

  test('an unknown route is a JSON 404 in the contract error shape', async () => {
    for (const [method, path] of [['GET', '/no-such-route'], ['POST', '/licenses/lic_x/nothing']] as const) {
      const response = await call(method, path);

      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body).toMatchObject({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  test('a path outside /v1 is a JSON 404 too', async () => {
    const response = await fetch(`${service.url}/admin`);

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).error.code).toBe('not_found');
  });

  test('a malformed JSON body is a JSON 400 invalid_request', async () => {
    const response = await call('POST', '/developers/signup', { rawBody: '{"email": "broken@example.com", "name": ' });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toMatchObject({ error: { code: 'invalid_request', message: expect.any(String) } });
  });

  test('a body over 64 KiB is a JSON 413 payload_too_large', async () => {
    const response = await call('POST', '/developers/signup', { body: { email: 'big@example.com', name: 'x'.repeat(70 * 1024) } });

    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  test('a body over 128 KiB is still a JSON 413 payload_too_large (not Bun\'s empty 413)', async () => {
    const response = await call('POST', '/developers/signup', { body: { email: 'huge@example.com', name: 'x'.repeat(200 * 1024) } });

    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  test('the process stops cleanly on SIGTERM', async () => {
    service.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(readdirSync(cwd.path)).toEqual([]);
  });
});
