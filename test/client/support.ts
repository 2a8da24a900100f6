import { afterAll, expect } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleLicenseKey, signingInputFor, type LicenseClaims } from '../../src/domain/license-key.ts';
import { utf8 } from '../../src/domain/base64url.ts';
import { answerSigningInput, type AnswerContext, type AnswerOp } from '../../src/domain/signed-answer.ts';
import { LicenseClient, type Jwks, type LicenseClientOptions } from '../../src/client/index.ts';

export const T0 = Date.UTC(2026, 0, 1);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const BASE_URL = 'http://licensing.test/v1';
export const FINGERPRINT = 'a'.repeat(64);

/** A seller's Ed25519 signing key, made here so tests sign keys exactly as the server does. */
export function sellerKey(kid = `key_${crypto.randomUUID()}`) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const jwks: Jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] };
  return {
    kid,
    jwks,
    /** A license key over these claims (defaults: a perpetual license issued at T0). */
    issue(claims: Partial<LicenseClaims> = {}): string {
      const full: LicenseClaims = {
        iss: 'http://licensing.test',
        sub: 'dev_1',
        id: 'lic_1',
        productId: 'prod_1',
        features: ['pro'],
        issuedAt: T0,
        expiresAt: null,
        ...claims,
      };
      const input = signingInputFor(kid, full);
      return assembleLicenseKey(input, sign(null, utf8.encode(input), privateKey));
    },
    /** The detached JWS the server puts in Licensing-Signature (docs/signed-answers.md). */
    signature(body: string, context: AnswerContext): string {
      const { header, input } = answerSigningInput(kid, context, body);
      return `${header}..${Buffer.from(sign(null, utf8.encode(input), privateKey)).toString('base64url')}`;
    },
    /**
     * A signed answer to `call`, as the server makes it: the op its path names (/licenses/validate:
     * validate, …), its nonce and fingerprint, the server's time (T0 unless told); `context`
     * overrides them for tampering tests.
     */
    answer(call: Call, body: unknown, context: Partial<AnswerContext> = {}): Response {
      const text = JSON.stringify(body);
      const signature = this.signature(text, {
        op: new URL(call.url).pathname.split('/').pop() as AnswerOp,
        serverTime: T0,
        nonce: call.headers['licensing-nonce'],
        machineFingerprint: call.body?.machineFingerprint,
        ...context,
      });
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'licensing-signature': signature } });
    },
  };
}

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: any;
}

/** A fetch that records every request and answers with `respond` (which may throw, as a dead network does). */
export function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const call = { method: init.method ?? 'GET', url: String(input), headers, body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    return respond(call);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const unreachable = () => {
  throw new TypeError('fetch failed: connection refused');
};

/** A temp folder per call, removed after the file's tests. */
export function tempDirs() {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-client-'));
    made.push(dir);
    return dir;
  };
}

/** A mutable clock for the client's `now`. */
export function clock(start = T0) {
  const c = { time: start, now: () => c.time, advance: (ms: number) => void (c.time += ms) };
  return c;
}

export function newClient(options: Partial<LicenseClientOptions> & Pick<LicenseClientOptions, 'publicKeys' | 'cacheDir'>): LicenseClient {
  return new LicenseClient({ baseUrl: BASE_URL, apiKey: 'pk_test', productId: 'prod_1', fingerprint: FINGERPRINT, ...options });
}

/** The warning of an offline answer for a license the service has never confirmed on this machine. */
export const NEVER_CONFIRMED = { status: 0, code: 'never_verified_online', message: expect.any(String) };
