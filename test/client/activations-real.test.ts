import { describe, expect, test } from 'bun:test';
import { ActivationLimitError, ApiError } from '../../src/client/index.ts';
import { useSandboxService } from '../browser/service.ts';
import { grantedSeller, type GrantedSeller } from './granted-seller.ts';
import { appClient } from './real-service.ts';
import { tempDirs } from './support.ts';

/**
 * activate(), deactivate() and activations() of the client library against the real server
 * process: the answers it believes are the service's own signed ones, and a bent one is refused.
 */
const service = useSandboxService();
const tempDir = tempDirs();

/** A license of its own allowing `maxMachines` machines, and an application client per machine. */
async function licensed(maxMachines = 2) {
  const seller = await grantedSeller(service.call);
  const changed = await service.call('PATCH', `/licenses/${seller.licenseId}`, { key: seller.apiKey, body: { maxMachines } });
  if (changed.status !== 200) throw new Error(`maxMachines: ${JSON.stringify(changed.body)}`);
  const machine = async (fingerprint: string, options: { fetch?: typeof fetch; cacheDir?: string } = {}) => {
    const client = appClient(service.url, seller, { cacheDir: options.cacheDir ?? tempDir(), fingerprint, ...(options.fetch && { fetch: options.fetch }) });
    await client.storeLicenseKey(seller.licenseKey);
    return client;
  };
  return { seller, machine };
}

/** The seller's view, straight from the API. */
const sellerList = async (seller: GrantedSeller) => (await service.call('GET', `/licenses/${seller.licenseId}/activations`, { key: seller.apiKey })).body;

async function thrown(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A fetch that passes everything to the real service, then lets `bend` change the answer to one path. */
function bending(path: string, bend: (text: string, headers: Headers) => { text: string; headers: Headers }): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith(path)) return response;
    const bent = bend(await response.text(), new Headers(response.headers));
    return new Response(bent.text, { status: response.status, headers: bent.headers });
  }) as typeof fetch;
}

describe('check(): the machine it binds is named by its host name', () => {
  test('the first check on a free slot binds this machine under os.hostname(), as the buyer and seller see it', async () => {
    const { seller, machine } = await licensed();
    const client = await machine('fp-checked');

    expect((await client.check({ online: true })).valid).toBe(true);

    const host = (await import('node:os')).hostname().trim().slice(0, 100);
    expect((await sellerList(seller)).data).toEqual([expect.objectContaining({ machineFingerprint: 'fp-checked', name: host })]);
  });
});

describe('activate(): a slot for this machine', () => {
  test('takes a slot under a name (created), again is the same activation (not created)', async () => {
    const { seller, machine } = await licensed();
    const laptop = await machine('fp-laptop');

    const first = await laptop.activate({ name: 'ada-laptop' });
    const again = await laptop.activate();

    expect(first).toEqual({ created: true, activation: { id: expect.stringMatching(/^act_/), name: 'ada-laptop', machineFingerprint: 'fp-laptop', createdAt: expect.any(Number), lastSeenAt: expect.any(Number) } });
    expect(again).toEqual({ created: false, activation: first.activation });
    expect((await sellerList(seller)).data).toEqual([first.activation]);
  });

  test('full: ActivationLimitError (an ApiError, 409 activation_limit) naming the machines that hold the slots', async () => {
    const { machine } = await licensed();
    const one = (await (await machine('fp-one')).activate({ name: 'one' })).activation;
    const two = (await (await machine('fp-two')).activate()).activation;

    const error = await thrown((await machine('fp-three')).activate({ name: 'three' }));

    expect(error).toBeInstanceOf(ActivationLimitError);
    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code, maxMachines: error.maxMachines, activations: error.activations }).toEqual({
      status: 409,
      code: 'activation_limit',
      maxMachines: 2,
      activations: [{ id: one.id, name: 'one' }, { id: two.id, name: null }],
    });
    expect(error.message).toContain('2 of 2');
  });

  test('after a check cached machine_mismatch, a successful activate() makes the next check() ask again', async () => {
    const { seller, machine } = await licensed(1);
    await (await machine('fp-first')).check();
    const late = await machine('fp-late');
    expect(await late.check()).toMatchObject({ valid: false, reason: 'machine_mismatch' });
    const [held] = (await sellerList(seller)).data;
    await service.call('DELETE', `/licenses/${seller.licenseId}/activations/${held.id}`, { key: seller.apiKey });

    await late.activate({ name: 'late' });

    expect(await late.check()).toMatchObject({ valid: true, offlineVerified: false, machineBound: true, machineFingerprint: 'fp-late' });
  });

  test('no key stored: a TypeError, and nothing is sent', async () => {
    const { seller } = await licensed();
    const calls: string[] = [];
    const empty = appClient(service.url, seller, { cacheDir: tempDir(), fingerprint: 'fp-x', fetch: (async (input: RequestInfo | URL) => (calls.push(String(input)), new Response('{}'))) as typeof fetch });

    for (const call of [() => empty.activate(), () => empty.deactivate(), () => empty.activations()]) expect(await thrown(call())).toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });
});

describe('activations(): the license’s machines, the key as proof', () => {
  test('oldest first with maxMachines, this machine marked', async () => {
    const { seller, machine } = await licensed();
    const desk = await machine('fp-desk');
    await desk.activate({ name: 'desk' });
    const laptop = await machine('fp-laptop');
    await laptop.activate({ name: 'laptop' });

    const list = await laptop.activations();

    expect(list).toEqual({
      licenseId: seller.licenseId,
      maxMachines: 2,
      data: [expect.objectContaining({ name: 'desk', machineFingerprint: 'fp-desk', thisMachine: false }), expect.objectContaining({ name: 'laptop', machineFingerprint: 'fp-laptop', thisMachine: true })],
    });
  });

  test('another seller’s publishable key: ApiError 404 not_found', async () => {
    const { seller } = await licensed();
    const other = await grantedSeller(service.call);
    const client = appClient(service.url, { ...seller, publishableKey: other.publishableKey }, { cacheDir: tempDir(), fingerprint: 'fp-a' });
    await client.storeLicenseKey(seller.licenseKey);

    const error = await thrown(client.activations());

    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: 'not_found' });
  });
});

describe('deactivate(): frees this machine’s slot', () => {
  test('the slot is free for another machine, and the local binding is forgotten', async () => {
    const { seller, machine } = await licensed(1);
    const cacheDir = tempDir();
    const old = await machine('fp-old', { cacheDir });
    await old.check();

    const removed = await old.deactivate();
    const fresh = await (await machine('fp-new')).activate();
    const offline = appClient('http://127.0.0.1:9', seller, { cacheDir, fingerprint: 'fp-old' });

    expect(removed).toMatchObject({ machineFingerprint: 'fp-old' });
    expect(fresh.created).toBe(true);
    expect(await old.getCachedLicenseKey()).toBe(seller.licenseKey);
    expect(await offline.check()).toMatchObject({ valid: true, offlineVerified: true, machineBound: false });
  });

  test('past the quota (3 per 30 days): ApiError 429 rate_limited with retryAfterSeconds; nothing removed', async () => {
    const { seller, machine } = await licensed(1);
    const client = await machine('fp-busy');
    for (let i = 0; i < 3; i++) {
      await client.activate();
      await client.deactivate();
    }
    await client.activate();

    const error = await thrown(client.deactivate());

    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect((await sellerList(seller)).data).toHaveLength(1);
  });
});

describe('an answer the seller did not sign for this request is never believed', () => {
  const tampered: [string, string, (text: string, headers: Headers) => { text: string; headers: Headers }][] = [
    ['activate: the body changed', '/licenses/activate', (text, headers) => ({ text: text.replace('"name":null', '"name":"forged"'), headers })],
    ['activate: the signature removed', '/licenses/activate', (text, headers) => (headers.delete('licensing-signature'), { text, headers })],
    ['activations: maxMachines raised', '/licenses/activations', (text, headers) => ({ text: text.replace('"maxMachines":2', '"maxMachines":1000'), headers })],
  ];

  test.each(tampered)('%s: ApiError unverified_answer', async (_, path, bend) => {
    const { machine } = await licensed();
    const client = await machine('fp-bent', { fetch: bending(path, bend) });

    const error = await thrown(path.endsWith('activate') ? client.activate() : client.activations());

    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('unverified_answer');
  });

  test('a tampered activation binds nothing locally: offline, the machine is still unbound', async () => {
    const { seller, machine } = await licensed();
    const cacheDir = tempDir();
    const client = await machine('fp-bent', { cacheDir, fetch: bending('/licenses/activate', (text, headers) => ({ text: text.replace('"name":null', '"name":"x"'), headers })) });

    await thrown(client.activate());
    const offline = appClient('http://127.0.0.1:9', seller, { cacheDir, fingerprint: 'fp-bent' });

    expect(await offline.check()).toMatchObject({ valid: true, offlineVerified: true, machineBound: false });
  });

  test('a replayed answer (signed for an earlier request) is refused', async () => {
    const { machine } = await licensed();
    let recorded: { text: string; headers: Headers } | null = null;
    const replaying = bending('/licenses/activations', (text, headers) => (recorded ??= { text, headers }));
    const client = await machine('fp-replay', { fetch: replaying });
    await client.activations();
    await client.activate({ name: 'new' });

    const error = await thrown(client.activations());

    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('unverified_answer');
    expect(error.message).toContain('nonce');
  });
});

