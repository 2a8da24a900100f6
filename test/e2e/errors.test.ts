import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { E2E_STORES } from './stores.ts';
import { client, type Call } from './support.ts';

describe.each(E2E_STORES)('unknown routes and bad bodies get the contract error shape, on $name', (setup) => {
  const data = setup.open();
  let server: RunningServer;
  let call: Call;

  beforeAll(async () => {
    server = await startServer(data.env);
    call = client(server.url);
  });

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop('SIGKILL');
    await data.dispose();
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
    const response = await fetch(`${server.url}/admin`);

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

  test('a rejected body changes nothing: the e-mail of a refused signup is still free', async () => {
    const signup = await call('POST', '/developers/signup', { body: { email: 'big@example.com', name: 'Big' } });

    expect(signup.status).toBe(201);
  });
});
