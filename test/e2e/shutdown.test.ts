import { afterAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { E2E_STORES } from './stores.ts';
import { client, lines } from './support.ts';

describe.each(E2E_STORES)('stopping the process on $name', (setup) => {
  const data = setup.open();
  let server: RunningServer | undefined;

  afterAll(async () => {
    if (server && server.proc.exitCode === null) await server.stop('SIGKILL');
    await data.dispose();
  });

  test('SIGTERM lets in-flight validations finish with proper answers, then exits 0 and logs "stopped"', async () => {
    // Arrange: a seller with a license bound to one machine.
    server = await startServer(data.env);
    const call = client(server.url);
    const signup = await call('POST', '/developers/signup', { body: { email: 'drain@example.com', name: 'Drain' } });
    const product = await call('POST', '/developers/products', { key: signup.body.apiKey, body: { name: 'P', price: 100, currency: 'usd' } });
    const grant = await call('POST', '/developers/licenses', { key: signup.body.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });
    const body = JSON.stringify({ licenseKey: grant.body.licenseKey, machineFingerprint: 'drain-machine' });

    // Act: 50 concurrent validations; SIGTERM as soon as the first answer is back, while the rest are in flight.
    const attempts = Array.from({ length: 50 }, () =>
      fetch(`${server!.url}/v1/licenses/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': signup.body.publishableKey },
        body,
      }).then(async (response) => ({ status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() })),
    );
    await Promise.race(attempts);
    const exitCode = server.stop('SIGTERM');
    const settled = await Promise.allSettled(attempts);

    // Assert: whatever got an answer got a whole, proper one; requests refused after the stop simply failed to connect.
    const answered = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(answered.length).toBeGreaterThan(0);
    for (const reply of answered) {
      expect(reply.status).toBe(200);
      expect(reply.type).toContain('application/json');
      expect(JSON.parse(reply.text)).toMatchObject({ valid: true, license: { id: grant.body.license.id } });
    }
    expect(await exitCode).toBe(0);
    const messages = lines(server.stdout()).map((line) => JSON.parse(line).msg);
    expect(messages).toContain('stopping');
    expect(messages.at(-1)).toBe('stopped');
  });

  test('SIGTERM writes the machines the last validations saw: lastSeenAt survives the restart (LAST_SEEN_FLUSH_MS longer than the run)', async () => {
    // Arrange: a bound machine last seen two hours ago (so the next validation moves it), and a batch that waits a minute.
    const env = { ...data.env, LAST_SEEN_FLUSH_MS: '60000' };
    server = await startServer(env);
    const call = client(server.url);
    const signup = await call('POST', '/developers/signup', { body: { email: 'seen@example.com', name: 'Seen' } });
    const product = await call('POST', '/developers/products', { key: signup.body.apiKey, body: { name: 'P', price: 100, currency: 'usd' } });
    const grant = await call('POST', '/developers/licenses', { key: signup.body.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });
    const licenseKey = grant.body.licenseKey;
    expect((await call('POST', '/licenses/activate', { key: signup.body.publishableKey, body: { licenseKey, machineFingerprint: 'seen-machine' } })).status).toBe(201);
    expect(await server.stop('SIGTERM')).toBe(0);
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    await data.run(`UPDATE activations SET last_seen_at = ${twoHoursAgo}`);

    // Act: one validation, then SIGTERM long before the batch's timer.
    server = await startServer(env);
    const before = Date.now();
    const validated = await client(server.url)('POST', '/licenses/validate', { key: signup.body.publishableKey, body: { licenseKey, machineFingerprint: 'seen-machine' } });
    expect(validated.body.valid).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    const written = lines(server.stdout()).map((line) => JSON.parse(line)).filter((line) => line.msg === 'last seen written');
    server = await startServer(env);
    const machines = await client(server.url)('GET', `/licenses/${grant.body.license.id}/activations`, { key: signup.body.apiKey });

    // Assert: the stop wrote the one sighting, and the new process reads it.
    expect(written).toHaveLength(1);
    expect(written[0].machines).toBe(1);
    expect(machines.body.data[0].lastSeenAt).toBeGreaterThanOrEqual(before);
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
