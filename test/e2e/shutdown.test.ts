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
});
