import { afterAll, expect, test } from 'bun:test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { client, tempDir } from './support.ts';

const dir = tempDir();
const running: RunningServer[] = [];

afterAll(async () => {
  for (const server of running) if (server.proc.exitCode === null) await server.stop('SIGKILL');
  dir.remove();
});

test('without MASTER_KEY, sandbox mode keeps its key beside the SQLite file, owner-only, and keeps using it after a restart', async () => {
  // Arrange: a seller whose signing key was sealed by the first process.
  const env = { DATABASE_URL: `sqlite:${join(dir.path, 'licensing.db')}`, MASTER_KEY: '' };
  running.push(await startServer(env));
  const call = client(running[0]!.url);
  const signup = await call('POST', '/developers/signup', { body: { email: 'keeper@example.com', name: 'Keeper' } });
  const product = await call('POST', '/developers/products', { key: signup.body.apiKey, body: { name: 'P', price: 100, currency: 'usd' } });
  const keyFile = join(dir.path, 'master.key');
  const keptBefore = readFileSync(keyFile, 'utf8');

  // Act
  expect(await running[0]!.stop('SIGTERM')).toBe(0);
  running.push(await startServer(env));
  const again = client(running[1]!.url);
  const grant = await again('POST', '/developers/licenses', { key: signup.body.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });

  // Assert: the same key file, readable by its owner only, opened the sealed signing key again.
  expect(existsSync(keyFile)).toBe(true);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(readFileSync(keyFile, 'utf8')).toBe(keptBefore);
  expect(grant.status).toBe(201);
  const check = await again('POST', '/licenses/validate', { key: signup.body.publishableKey, body: { licenseKey: grant.body.licenseKey, machineFingerprint: 'm1' } });
  expect(check.body).toMatchObject({ valid: true, license: { id: grant.body.license.id } });
});
