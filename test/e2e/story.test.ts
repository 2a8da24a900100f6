import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { E2E_STORES } from './stores.ts';
import { licenseStory, MACHINE_A, MACHINE_B, type Story } from './story.ts';
import { client, type Call } from './support.ts';

describe.each(E2E_STORES)('the license lifecycle on $name, across a restart', (setup) => {
  const data = setup.open();
  const env = data.env;
  const running: RunningServer[] = [];
  let call: Call;
  let story: Story;
  /** What the first process answered just before it was stopped. */
  const before = { products: undefined as unknown, jwks: undefined as unknown, boundKey: '' };

  beforeAll(async () => {
    running.push(await startServer(env));
    call = client(running[0]!.url);
  });

  afterAll(async () => {
    for (const server of running) if (server.proc.exitCode === null) await server.stop('SIGKILL');
    await data.dispose();
  });

  test('signup → product → grant → bind → mismatch → unbind → rebind → revoke, each answered as the spec says', async () => {
    story = await licenseStory(call);
    const s = story.steps;

    expect(s.signup.status).toBe(201);
    expect(story.developer.apiKey).toStartWith('sk_');
    expect(story.developer.publishableKey).toStartWith('pk_');
    expect(s.product.status).toBe(201);
    expect(s.grant.status).toBe(201);
    expect(s.grant.body.license).toMatchObject({ productId: story.productId, status: 'active', features: ['pro', 'export'] });
    expect(s.firstOnA.status).toBe(200);
    expect(s.firstOnA.body).toMatchObject({ valid: true, license: { id: story.licenseId, status: 'active' } });
    expect(s.thenOnB.body).toEqual({ valid: false, reason: 'machine_mismatch' });
    expect(s.unbind.status).toBe(200);
    expect(s.rebindOnB.body).toMatchObject({ valid: true, license: { id: story.licenseId } });
    expect(s.revoke.status).toBe(200);
    expect(s.revoke.body.status).toBe('revoked');
    expect(s.afterRevoke.body).toEqual({ valid: false, reason: 'revoked' });
  });

  test('after SIGTERM and a restart on the same data, everything holds', async () => {
    // Arrange: a second, still active license bound to machine A, and the state as seen before the stop.
    const { apiKey, publishableKey, id: developerId } = story.developer;
    const bound = await call('POST', '/developers/licenses', { key: apiKey, body: { productId: story.productId, email: 'second@example.com' } });
    before.boundKey = bound.body.licenseKey;
    expect((await call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: before.boundKey, machineFingerprint: MACHINE_A } })).body.valid).toBe(true);
    before.products = (await call('GET', '/developers/products', { key: apiKey })).body;
    before.jwks = (await call('GET', `/developers/${developerId}/jwks.json`)).body;

    // Act
    expect(await running[0]!.stop('SIGTERM')).toBe(0);
    running.push(await startServer(env));
    const again = client(running[1]!.url);

    // Assert
    const revoked = await again('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: story.licenseKey, machineFingerprint: MACHINE_B } });
    expect(revoked.body).toEqual({ valid: false, reason: 'revoked' });
    expect((await again('GET', `/licenses/${story.licenseId}`, { key: apiKey })).body.status).toBe('revoked');

    const stillBound = await again('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: before.boundKey, machineFingerprint: MACHINE_B } });
    expect(stillBound.body).toEqual({ valid: false, reason: 'machine_mismatch' });

    const products = await again('GET', '/developers/products', { key: apiKey });
    expect(products.status).toBe(200);
    expect(products.body).toEqual(before.products);

    const jwks = await again('GET', `/developers/${developerId}/jwks.json`);
    expect(jwks.body).toEqual(before.jwks);

    // A license signed after the restart proves the sealed signing key was reopened with the kept master key.
    const fresh = await again('POST', '/developers/licenses', { key: apiKey, body: { productId: story.productId, email: 'after@example.com' } });
    expect(fresh.status).toBe(201);
    const freshCheck = await again('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: fresh.body.licenseKey, machineFingerprint: MACHINE_A } });
    expect(freshCheck.body).toMatchObject({ valid: true, license: { id: fresh.body.license.id } });
  });
});
