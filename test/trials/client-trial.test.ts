import { describe, expect, test } from 'bun:test';
import { ApiError, LicenseClient } from '../../src/client/index.ts';
import { tempDirs } from '../client/support.ts';
import { seller, testApi } from '../support/http.ts';

const tempDir = tempDirs();
const DAY = 86_400_000;

/** A seller offering a 14-day trial, and an application client per machine talking to the real HTTP app. */
async function trialApp() {
  const api = testApi();
  const s = await seller(api);
  await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: 14 } });
  const publicKeys = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => api.app.handle(new Request(input, init));
  const machine = (fingerprint: string) =>
    new LicenseClient({ baseUrl: 'http://localhost/v1', apiKey: s.publishableKey, publicKeys, fetch: fetch as typeof globalThis.fetch, fingerprint, cacheDir: tempDir(), now: () => api.clock.now() });
  return { api, s, machine };
}

describe('the client library’s startTrial()', () => {
  test('starts the trial for this machine and stores the key: check() then finds it valid', async () => {
    const { api, s, machine } = await trialApp();
    const client = machine('a'.repeat(64));

    const started = await client.startTrial({ productId: s.product.id, email: 'ada@example.com', name: 'ada-laptop' });

    expect(started.license).toMatchObject({ trial: true, expiresAt: api.clock.now() + 14 * DAY });
    expect(started.activation.machineFingerprint).toBe('a'.repeat(64));
    expect(await client.getCachedLicenseKey()).toBe(started.licenseKey);
    expect(await client.check({ online: true })).toMatchObject({ valid: true, license: { id: started.license.id } });
  });

  test('a second trial from the same e-mail on another machine is an ApiError 409 trial_already_used, and stores nothing', async () => {
    const { s, machine } = await trialApp();
    await machine('a'.repeat(64)).startTrial({ productId: s.product.id, email: 'ada@example.com' });
    const other = machine('b'.repeat(64));

    const error = await other.startTrial({ productId: s.product.id, email: 'ada@example.com' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'trial_already_used', details: { reason: 'email' } });
    expect(await other.getCachedLicenseKey()).toBeNull();
  });
});
