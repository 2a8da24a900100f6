import { describe, expect, test } from 'bun:test';
import { ActivationLimitError, ApiError } from '../../src/client/index.ts';
import { clock, fakeFetch, FINGERPRINT, json, newClient, sellerKey, T0, tempDirs, type Call } from './support.ts';

/**
 * activate(), deactivate() and activations() with a scripted server: what the client sends, and
 * which answers it refuses to believe. (test/client/activations-real.test.ts runs them against the real service.)
 */
const tempDir = tempDirs();
const seller = sellerKey();
const ACTIVATION = { id: 'act_1', name: 'ada', machineFingerprint: FINGERPRINT, createdAt: T0, lastSeenAt: T0 };
const LIST = { licenseId: 'lic_1', maxMachines: 2, data: [ACTIVATION, { ...ACTIVATION, id: 'act_2', name: null, machineFingerprint: 'b'.repeat(64) }] };

async function setup(respond: (call: Call) => Response) {
  const net = fakeFetch(respond);
  const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: clock().now });
  await client.storeLicenseKey(seller.issue());
  return { client, net };
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('what is sent', () => {
  test('activate: the stored key, this machine, the name, a fresh nonce and the publishable key', async () => {
    const { client, net } = await setup((call) => seller.answer(call, { activation: ACTIVATION }));

    await client.activate({ name: 'ada' });

    const [call] = net.calls;
    expect(call).toMatchObject({ method: 'POST', url: 'http://licensing.test/v1/licenses/activate', body: { licenseKey: await client.getCachedLicenseKey(), machineFingerprint: FINGERPRINT, name: 'ada' } });
    expect(call!.headers['x-api-key']).toBe('pk_test');
    expect(call!.headers['licensing-nonce']).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  test('activations: the key and the application’s product; the answer marks this machine', async () => {
    const { client, net } = await setup((call) => seller.answer(call, LIST));

    const list = await client.activations();

    expect(net.calls[0]!.body).toEqual({ licenseKey: await client.getCachedLicenseKey(), productId: 'prod_1' });
    expect(list.data.map((a) => [a.id, a.thisMachine])).toEqual([['act_1', true], ['act_2', false]]);
  });
});

describe('answers that are refused: ApiError unverified_answer, nothing stored', () => {
  const cases: [string, 'activate' | 'deactivate' | 'activations', (call: Call) => Response][] = [
    ['activate signed for another machine', 'activate', (call) => seller.answer(call, { activation: ACTIVATION }, { machineFingerprint: 'b'.repeat(64) })],
    ['activate naming another machine’s activation', 'activate', (call) => seller.answer(call, { activation: { ...ACTIVATION, machineFingerprint: 'b'.repeat(64) } })],
    ['deactivate unsigned', 'deactivate', () => json({ activation: ACTIVATION })],
    ['a listing whose signed header names a machine', 'activations', (call) => seller.answer(call, LIST, { machineFingerprint: FINGERPRINT })],
    ['a listing of another license', 'activations', (call) => seller.answer(call, { ...LIST, licenseId: 'lic_other' })],
    ['an activation answer given for a listing', 'activations', (call) => seller.answer(call, { activation: ACTIVATION })],
    ['a listing signed by an unknown key', 'activations', (call) => sellerKey(seller.kid).answer(call, LIST)],
  ];

  test.each(cases)('%s', async (_, method, respond) => {
    const { client } = await setup(respond);

    const error = await rejection(client[method]());

    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('unverified_answer');
  });
});

describe('an answer the seller signed for another operation is refused like a forged one: unverified_answer, nothing stored', () => {
  const VALIDATED = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
  const cases: [string, 'activate' | 'deactivate' | 'activations', (call: Call) => Response][] = [
    // The man in the middle sends a deactivate with activate's nonce and returns its genuine answer.
    ['a deactivate answer (same nonce, same machine) given to activate', 'activate', (call) => seller.answer(call, { activation: ACTIVATION }, { op: 'deactivate' })],
    ['an activate answer (same nonce, same machine) given to deactivate', 'deactivate', (call) => seller.answer(call, { activation: ACTIVATION }, { op: 'activate' })],
    ['a validate answer (same nonce) given for a listing', 'activations', (call) => seller.answer(call, VALIDATED, { op: 'validate', machineFingerprint: undefined })],
    ['a listing body signed as a validate answer', 'activations', (call) => seller.answer(call, LIST, { op: 'validate' })],
  ];

  test.each(cases)('%s', async (_, method, respond) => {
    const { client } = await setup(respond);

    const error = await rejection(client[method]());

    expect(error).toBeInstanceOf(ApiError);
    expect({ code: error.code, message: error.message }).toEqual({ code: 'unverified_answer', message: expect.stringMatching(/another operation/) });
    expect((await client.check()).machineBound).toBe(false);
  });
});

describe('errors', () => {
  test('409 activation_limit: ActivationLimitError with the machines, whatever else details holds', async () => {
    const details = { maxMachines: 2, activations: [{ id: 'act_1', name: 'ada', extra: 1 }, { id: 'act_2', name: null }, { junk: true }] };
    const { client } = await setup(() => json({ error: { code: 'activation_limit', message: 'full', details } }, 409));

    const error = await rejection(client.activate());

    expect(error).toBeInstanceOf(ActivationLimitError);
    expect({ status: error.status, code: error.code, message: error.message, maxMachines: error.maxMachines, activations: error.activations }).toEqual({
      status: 409, code: 'activation_limit', message: 'full', maxMachines: 2, activations: [{ id: 'act_1', name: 'ada' }, { id: 'act_2', name: null }],
    });
  });

  test('429 from deactivate: an ApiError with retryAfterSeconds', async () => {
    const { client } = await setup(() => json({ error: { code: 'rate_limited', message: 'later' } }, 429, { 'retry-after': '3600' }));

    const error = await rejection(client.deactivate());

    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code, retryAfterSeconds: error.retryAfterSeconds }).toEqual({ status: 429, code: 'rate_limited', retryAfterSeconds: 3600 });
  });

  test('unreachable: ApiError status 0 network_error', async () => {
    const { client } = await setup(() => {
      throw new TypeError('fetch failed');
    });

    const error = await rejection(client.activations());

    expect({ status: error.status, code: error.code }).toEqual({ status: 0, code: 'network_error' });
  });
});

describe('the cache follows', () => {
  test('activate binds this machine; deactivate forgets the binding and the verdict', async () => {
    let answer: (call: Call) => Response = (call) => seller.answer(call, { activation: ACTIVATION });
    const { client } = await setup((call) => answer(call));

    await client.activate();
    answer = () => {
      throw new TypeError('fetch failed');
    };
    const bound = await client.check();
    answer = (call) => seller.answer(call, { activation: ACTIVATION });
    await client.deactivate();
    answer = () => {
      throw new TypeError('fetch failed');
    };
    const unbound = await client.check();

    expect(bound).toMatchObject({ valid: true, offlineVerified: true, machineBound: true, machineFingerprint: FINGERPRINT });
    expect(unbound).toMatchObject({ valid: true, offlineVerified: true, machineBound: false });
  });

  test('a signed answer’s server time is kept like a validation’s: a clock set back behind it is distrusted', async () => {
    const time = clock(T0);
    const cacheDir = tempDir();
    const net = fakeFetch((call) => seller.answer(call, LIST, { serverTime: T0 + 10 * 86_400_000 }));
    const client = newClient({ publicKeys: seller.jwks, cacheDir, fetch: net.fetch, now: time.now });
    await client.storeLicenseKey(seller.issue());

    await client.activations();
    const dead = fakeFetch(() => {
      throw new TypeError('fetch failed');
    });
    const offline = newClient({ publicKeys: seller.jwks, cacheDir, fetch: dead.fetch, now: time.now });

    expect(await offline.check()).toMatchObject({ valid: false, reason: 'network_error', clockRollback: true });
  });
});
