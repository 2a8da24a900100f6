import { describe, expect, test } from 'bun:test';
import type { ApiError, LicenseDetails } from '../../src/client/index.ts';
import { clock, fakeFetch, FINGERPRINT, json, newClient, sellerKey, T0, tempDirs, type Call } from './support.ts';

const tempDir = tempDirs();
const seller = sellerKey();
const VALID = { valid: true, license: { id: 'lic_1', status: 'active', features: ['pro'], expiresAt: null } };
const LICENSE: LicenseDetails = { id: 'lic_1', productId: 'prod_1', features: ['pro'], status: 'active', issuedAt: T0, expiresAt: null };
/** What check() answers when the server's answer is not believed: the offline result, with a warning. */
const OFFLINE = { valid: true, license: LICENSE, offlineVerified: true, machineBound: false };

async function setup(respond: (call: Call) => Response | Promise<Response>) {
  const errors: ApiError[] = [];
  const net = fakeFetch(respond);
  const client = newClient({ publicKeys: seller.jwks, cacheDir: tempDir(), fetch: net.fetch, now: clock().now, onError: (e) => errors.push(e) });
  await client.storeLicenseKey(seller.issue());
  return { client, net, errors };
}

/** The same answer as `seller.answer`, with its text or detached header bent by `bend`. */
function bent(call: Call, body: unknown, bend: (text: string, signature: string) => [string, string | null]): Response {
  const good = seller.answer(call, body);
  const signature = good.headers.get('licensing-signature')!;
  const text = JSON.stringify(body);
  const [newText, newSignature] = bend(text, signature);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (newSignature !== null) headers['licensing-signature'] = newSignature;
  return new Response(newText, { status: 200, headers });
}

function withHeader(signature: string, change: (header: Record<string, unknown>) => Record<string, unknown>): string {
  const [h, , s] = signature.split('.');
  const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
  return `${Buffer.from(JSON.stringify(change(header))).toString('base64url')}..${s}`;
}

describe('online checks send a nonce and believe only signed answers', () => {
  test('each validation sends a fresh Licensing-Nonce of 24 url-safe characters', async () => {
    const { client, net } = await setup((call) => seller.answer(call, VALID));
    await client.check({ online: true });
    await client.check({ online: true });

    const nonces = net.calls.map((c) => c.headers['licensing-nonce']);
    expect(nonces[0]).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(nonces[1]).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test('a signed valid answer is believed, and a signed revoked too', async () => {
    const valid = await setup((call) => seller.answer(call, VALID));
    expect(await valid.client.check()).toEqual({ valid: true, license: LICENSE, offlineVerified: false, machineBound: true, machineFingerprint: FINGERPRINT });
    const revoked = await setup((call) => seller.answer(call, { valid: false, reason: 'revoked' }));
    expect(await revoked.client.check()).toEqual({ valid: false, reason: 'revoked', offlineVerified: false });
  });

  const other = sellerKey(seller.kid);
  const forgeries: [string, (call: Call) => Response, RegExp][] = [
    ['no Licensing-Signature header', (call) => json(VALID), /not signed/],
    ['a body changed after signing', (call) => bent(call, { valid: false, reason: 'revoked' }, (text, sig) => [JSON.stringify({ valid: false, reason: 'expired' }), sig]), /altered or forged/],
    ['a server time changed after signing', (call) => bent(call, VALID, (text, sig) => [text, withHeader(sig, (h) => ({ ...h, serverTime: (h.serverTime as number) + 1 }))]), /altered or forged/],
    ['a nonce changed after signing', (call) => bent(call, VALID, (text, sig) => [text, withHeader(sig, (h) => ({ ...h, nonce: 'x'.repeat(24) }))]), /nonce|forged/],
    ["another seller's key under the same kid", (call) => other.answer(call, VALID), /altered or forged/],
    ['a kid publicKeys does not hold', (call) => sellerKey('kid_unknown').answer(call, VALID), /kid_unknown.*JWKS/],
    ['an answer signed for another nonce', (call) => seller.answer(call, VALID, { nonce: 'an-older-request-nonce' }), /replayed/],
    ['an answer about another machine', (call) => seller.answer(call, VALID, { machineFingerprint: 'b'.repeat(64) }), /another machine/],
    ['an answer the seller signed for another operation (same nonce, same machine)', (call) => seller.answer(call, VALID, { op: 'activate' }), /another operation/],
    ['a valid answer about another license', (call) => seller.answer(call, { ...VALID, license: { ...VALID.license, id: 'lic_2' } }), /another license/],
    ['a detached header that is not a JWS', (call) => bent(call, VALID, (text) => [text, 'nonsense']), /not a detached JWS/],
    ['the compact JWS instead of a detached one', (call) => bent(call, VALID, (text, sig) => [text, sig.replace('..', `.${Buffer.from(text).toString('base64url')}.`)]), /not a detached JWS/],
  ];
  for (const [what, respond, message] of forgeries) {
    test(`${what}: not believed; the offline result stands with a warning, nothing cached`, async () => {
      const { client, errors } = await setup(respond);

      const result = await client.check();

      expect(result).toEqual({ ...OFFLINE, warning: { status: 200, code: 'unverified_answer', message: expect.stringMatching(message) } } as never);
      expect(errors.map((e) => e.code)).toEqual(['unverified_answer']);
      expect(await client.needsRefresh()).toBe(true);
    });
  }

  test('a forged revoked does not revoke, and a forged valid does not bind', async () => {
    const { client } = await setup((call) => bent(call, { valid: false, reason: 'revoked' }, (text, sig) => [text, withHeader(sig, (h) => ({ ...h, kid: 'kid_unknown' }))]));
    expect(await client.check()).toMatchObject({ valid: true, offlineVerified: true, machineBound: false });
  });

  test('an answer replayed from an earlier request is refused: its nonce was that request’s', async () => {
    let first: Response | null = null;
    const { client } = await setup(async (call) => {
      if (!first) {
        first = seller.answer(call, VALID);
        return first.clone();
      }
      return first.clone();
    });
    expect(await client.check({ online: true })).toMatchObject({ valid: true, offlineVerified: false });

    const replayed = await client.check({ online: true });

    expect(replayed).toMatchObject({ valid: true, offlineVerified: true, warning: { code: 'unverified_answer', message: expect.stringMatching(/replayed/) } });
  });
});
