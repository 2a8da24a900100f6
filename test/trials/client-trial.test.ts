import { describe, expect, test } from 'bun:test';
import { issueOrConvert } from '../../src/app/trials/convert-trial.ts';
import { ApiError, LicenseClient, type TrialCodeSent } from '../../src/client/index.ts';
import { tempDirs } from '../client/support.ts';
import { seller, testApi } from '../support/http.ts';
import { mailedCode } from './trial-shop.ts';

const tempDir = tempDirs();
const DAY = 86_400_000;

/** A seller offering a 14-day trial, and an application client per machine talking to the real HTTP app. */
async function trialApp() {
  const api = testApi();
  const s = await seller(api);
  await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: 14 } });
  const publicKeys = (await api.call('GET', `/developers/${s.id}/jwks.json`)).body;
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => api.app.handle(new Request(input, init));
  const machine = (fingerprint: string, apiKey = s.publishableKey) =>
    new LicenseClient({ baseUrl: 'http://localhost/v1', apiKey, productId: s.product.id, publicKeys, fetch: fetch as typeof globalThis.fetch, fingerprint, cacheDir: tempDir(), now: () => api.clock.now() });
  /** The buyer reads the mail and types the code in. */
  const fromMail = (asked: TrialCodeSent[] = []) => async (sent: TrialCodeSent) => {
    asked.push(sent);
    return mailedCode(api, sent.email);
  };
  return { api, s, machine, fromMail };
}

describe('the client library’s startTrial()', () => {
  test('asks for the e-mailed code, then starts the trial for this machine and stores the key: check() then finds it valid', async () => {
    const { api, s, machine, fromMail } = await trialApp();
    const client = machine('a'.repeat(64));
    const asked: TrialCodeSent[] = [];

    const started = await client.startTrial({ productId: s.product.id, email: 'ada@example.com', name: 'ada-laptop', code: fromMail(asked) });

    expect(asked).toEqual([{ trialRequestId: expect.stringMatching(/^trq_/), expiresIn: 300, email: 'ada@example.com', attempt: 1 }]);
    expect(started.license).toMatchObject({ trial: true, expiresAt: api.clock.now() + 14 * DAY });
    expect(started.activation.machineFingerprint).toBe('a'.repeat(64));
    expect(await client.getCachedLicenseKey()).toBe(started.licenseKey);
    expect(await client.check({ online: true })).toMatchObject({ valid: true, license: { id: started.license.id } });
  });

  test('a wrong code is asked again, with the refusal; the right one then starts the trial', async () => {
    const { s, machine, fromMail } = await trialApp();
    const client = machine('a'.repeat(64));
    const asked: TrialCodeSent[] = [];
    const right = fromMail(asked);

    const started = await client.startTrial({ productId: s.product.id, email: 'ada@example.com', code: async (sent) => (sent.attempt === 1 ? (asked.push(sent), '000000') : right(sent)) });

    expect(asked.map((a) => a.attempt)).toEqual([1, 2]);
    expect(asked[1]!.previousError).toMatchObject({ status: 422, code: 'otp_invalid' });
    expect(await client.getCachedLicenseKey()).toBe(started.licenseKey);
  });

  test('no key is stored before the code: giving up (an empty answer) is otp_invalid and leaves nothing', async () => {
    const { s, machine } = await trialApp();
    const client = machine('a'.repeat(64));

    const error = await client.startTrial({ productId: s.product.id, email: 'ada@example.com', code: async () => '' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'otp_invalid' });
    expect(await client.getCachedLicenseKey()).toBeNull();
  });

  test('in two steps: requestTrial() then confirmTrial() with the code', async () => {
    const { api, s, machine } = await trialApp();
    const client = machine('a'.repeat(64));

    const asked = await client.requestTrial({ productId: s.product.id, email: 'ada@example.com' });
    if ('started' in asked) throw new Error('a publishable key starts nothing at once');
    expect(await client.getCachedLicenseKey()).toBeNull();
    const started = await client.confirmTrial({ productId: s.product.id, trialRequestId: asked.trialRequestId, otp: await mailedCode(api, 'ada@example.com') });

    expect(await client.getCachedLicenseKey()).toBe(started.licenseKey);
  });

  test('a secret key is refused before anything is sent: the seller’s own tooling starts trials with POST /trials itself', async () => {
    const { s, machine } = await trialApp();

    expect(() => machine('a'.repeat(64), s.apiKey)).toThrow(/secret key/);
  });

  test('without a code callback: a TypeError saying why, before anything is sent', async () => {
    const { s, machine } = await trialApp();

    const error = await machine('a'.repeat(64)).startTrial({ productId: s.product.id, email: 'ada@example.com' } as never).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toContain('code');
  });

  test('a second trial from the same e-mail on another machine is an ApiError 409 trial_already_used, and stores nothing', async () => {
    const { s, machine, fromMail } = await trialApp();
    await machine('a'.repeat(64)).startTrial({ productId: s.product.id, email: 'ada@example.com', code: fromMail() });
    const other = machine('b'.repeat(64));

    const error = await other.startTrial({ productId: s.product.id, email: 'ada@example.com', code: fromMail() }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'trial_already_used', details: { reason: 'email' } });
    expect(await other.getCachedLicenseKey()).toBeNull();
  });

  test('once the trial is bought, check() online swaps the trial key for the paid one, as after a renewal', async () => {
    const { api, s, machine, fromMail } = await trialApp();
    const client = machine('a'.repeat(64));
    const started = await client.startTrial({ productId: s.product.id, email: 'ada@example.com', code: fromMail() });
    // A purchase with the same e-mail converts the trial (issueOrConvert, as every paid path does).
    const now = api.clock.now();
    const customerId = (await api.deps.customers.findByEmail('ada@example.com'))!.id;
    const paid = await issueOrConvert(api.deps, { developerId: s.id, productId: s.product.id, customerId, features: ['pro'], issuedAt: now, expiresAt: now + 365 * DAY, maxMachines: 1 }, {});

    const checked = await client.check({ online: true });

    expect(paid.id).toBe(started.license.id);
    expect(checked).toMatchObject({ valid: true, license: { id: paid.id, expiresAt: now + 365 * DAY } });
    expect(await client.getCachedLicenseKey()).toBe(paid.licenseKey);
  });
});
