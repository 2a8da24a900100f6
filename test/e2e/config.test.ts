import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { client, jwsPayload, lines, spawnService, tempDir } from './support.ts';

/** Starts the service with `env` in an empty folder and waits for it to exit on its own. */
async function startUpFailure(env: Record<string, string>) {
  const dir = tempDir();
  try {
    const service = await spawnService({ DATABASE_URL: `sqlite:${join(dir.path, 'x.db')}`, ...env }, { cwd: dir.path, inheritEnv: false });
    // A service that came up anyway would never exit: stop it so the test fails on the exit code instead of hanging.
    const guard = setTimeout(() => service.kill('SIGKILL'), 20_000);
    const code = await service.exited;
    clearTimeout(guard);
    return { code, output: service.output(), leftBehind: readdirSync(dir.path) };
  } finally {
    dir.remove();
  }
}

describe('a bad configuration value stops start-up with one line naming the variable', () => {
  const cases: [variable: string, value: string][] = [
    ['PORT', 'abc'],
    ['PUBLIC_BASE_URL', 'not-a-url'],
    ['MASTER_KEY', Buffer.from('short').toString('base64')], // 5 bytes, not 32
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
  ];

  test.each(cases)('%s=%s exits non-zero with one clear line', async (variable, value) => {
    const { code, output, leftBehind } = await startUpFailure({ [variable]: value });

    expect(code).not.toBe(0);
    const printed = lines(output);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(variable);
    expect(leftBehind).toEqual([]);
  });
});

test('a second process on a SQLite file already served exits with one line naming DATABASE_URL', async () => {
  const dir = tempDir();
  const env = { DATABASE_URL: `sqlite:${join(dir.path, 'owned.db')}` };
  const owner = await startServer(env);
  try {
    const second = await spawnService(env, { inheritEnv: false });
    const guard = setTimeout(() => second.kill('SIGKILL'), 20_000);
    const code = await second.exited;
    clearTimeout(guard);

    expect(code).not.toBe(0);
    expect(lines(second.output())).toEqual([expect.stringContaining('DATABASE_URL')]);
    expect((await fetch(`${owner.url}/v1/health`)).status).toBe(200);
  } finally {
    await owner.stop();
    dir.remove();
  }
});

describe('MASTER_KEY and PUBLIC_BASE_URL given explicitly', () => {
  const publicBaseUrl = 'https://licenses.example.test';
  const dir = tempDir();
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${join(dir.path, 'licensing.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PUBLIC_BASE_URL: publicBaseUrl,
    });
  });

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop();
    dir.remove();
  });

  test('an explicit 32-byte MASTER_KEY is used: keys are issued and validate, and no master.key file is kept', async () => {
    const call = client(server.url);
    const signup = await call('POST', '/developers/signup', { body: { email: 'explicit@example.com', name: 'Explicit' } });
    const product = await call('POST', '/developers/products', { key: signup.body.apiKey, body: { name: 'P', price: 100, currency: 'usd' } });
    const grant = await call('POST', '/developers/licenses', { key: signup.body.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });

    const check = await call('POST', '/licenses/validate', { key: signup.body.publishableKey, body: { licenseKey: grant.body.licenseKey, machineFingerprint: 'm1' } });

    expect(check.body.valid).toBe(true);
    expect(existsSync(join(dir.path, 'master.key'))).toBe(false);
  });

  test('PUBLIC_BASE_URL is the iss claim of issued license keys', async () => {
    const call = client(server.url);
    const signup = await call('POST', '/developers/signup', { body: { email: 'issuer@example.com', name: 'Issuer' } });
    const product = await call('POST', '/developers/products', { key: signup.body.apiKey, body: { name: 'P', price: 100, currency: 'usd' } });

    const grant = await call('POST', '/developers/licenses', { key: signup.body.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });

    expect(grant.status).toBe(201);
    const claims = jwsPayload(grant.body.licenseKey);
    expect(claims.iss).toBe(publicBaseUrl);
    expect(claims.sub).toBe(signup.body.id);
  });

  test('PUBLIC_BASE_URL is the server URL of the OpenAPI document, whose paths carry /v1 (so Try it out calls PUBLIC_BASE_URL/v1/…)', async () => {
    const response = await client(server.url)('GET', '/openapi.json');

    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([expect.objectContaining({ url: publicBaseUrl })]);
    expect(Object.keys(response.body.paths)).toContain('/v1/health');
  });
});
