import { describe, expect, test } from 'bun:test';
import { generateKeyPairSync, sign } from 'node:crypto';
import { encodeBase64url, encodeBase64urlPortable, utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, signingInputFor } from '../../src/domain/license-key.ts';
import { ANSWER_OPS, answerHeaderEncoder, answerHeaderJson, answerSigningInput, parseAnswer } from '../../src/domain/signed-answer.ts';

const { privateKey } = generateKeyPairSync('ed25519');
const BODY = '{"valid":false,"reason":"revoked"}';
const signed = (input: string) => Buffer.from(sign(null, utf8.encode(input), privateKey)).toString('base64url');

describe('signed answers: one JWS, detached or compact', () => {
  const { header, payload, input } = answerSigningInput('kid_1', { op: 'activate', serverTime: 1_767_225_600_000, nonce: 'n'.repeat(16), machineFingerprint: 'fp' }, BODY);
  const signature = signed(input);

  test('the detached form with its body and the compact form read the same', () => {
    const detached = parseAnswer(`${header}..${signature}`, BODY)!;
    const compact = parseAnswer(`${header}.${payload}.${signature}`)!;
    expect(detached.header).toEqual({ alg: 'EdDSA', kid: 'kid_1', typ: 'licensing-answer+jws', op: 'activate', serverTime: 1_767_225_600_000, nonce: 'n'.repeat(16), machineFingerprint: 'fp' });
    expect(compact).toEqual(detached);
    expect(compact.body).toBe(BODY);
  });

  test('a detached JWS without its body, or a compact one with a body beside it, is refused', () => {
    expect(parseAnswer(`${header}..${signature}`)).toBeNull();
    expect(parseAnswer(`${header}.${payload}.${signature}`, BODY)).toBeNull();
  });

  test('a license key signed by the same key is not an answer (typ), nor is an answer without serverTime', () => {
    const key = signingInputFor('kid_1', { iss: 'i', sub: 'dev', id: 'lic', productId: 'p', features: [], issuedAt: 0, expiresAt: null });
    expect(parseAnswer(assembleLicenseKey(key, sign(null, utf8.encode(key), privateKey)))).toBeNull();
    const noTime = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'kid_1', typ: 'licensing-answer+jws' })).toString('base64url');
    expect(parseAnswer(`${noTime}..${signed(`${noTime}.${payload}`)}`, BODY)).toBeNull();
  });

  test('an answer without a nonce has none in its header', () => {
    const bare = answerSigningInput('kid_1', { op: 'validate', serverTime: 1 }, BODY);
    expect(parseAnswer(`${bare.header}..${signed(bare.input)}`, BODY)!.header).toEqual({ alg: 'EdDSA', kid: 'kid_1', typ: 'licensing-answer+jws', op: 'validate', serverTime: 1 });
  });

  test('an answer without an op, or with an unknown one, is not an answer', () => {
    const { op: _, ...rest } = parseAnswer(`${header}..${signature}`, BODY)!.header;
    for (const fields of [rest, { ...rest, op: 'renew' }, { ...rest, op: 1 }]) {
      const h = Buffer.from(JSON.stringify(fields)).toString('base64url');
      expect(parseAnswer(`${h}..${signed(`${h}.${payload}`)}`, BODY)).toBeNull();
    }
  });
});

describe('the header encoder: the constant part encoded once, the same bytes as the whole JSON encoded', () => {
  // Kids of every length modulo 3 move the cut; fingerprints need JSON escaping; nonces may be absent.
  const kids = ['kid_1', 'kid_12', 'kid_123', 'kid_8fK2mQ9xZ1', 'kid_"quoted"\\', 'kid_é'];
  const contexts = [
    { serverTime: 0 },
    { serverTime: 1_767_225_600_000, nonce: 'n0nce_0123456789abcdef' },
    { serverTime: 7, machineFingerprint: 'fp "with" \\ quotes\n and ünïcode ✓' },
    { serverTime: 1_767_225_600_123, nonce: 'A'.repeat(128), machineFingerprint: '' },
  ];
  test('every kid, op and context encodes exactly as base64url(JSON.stringify(header))', () => {
    for (const kid of kids) {
      for (const op of ANSWER_OPS) {
        const encode = answerHeaderEncoder(kid, op);
        for (const context of contexts) {
          const full = { op, ...context };
          expect(encode(full)).toBe(Buffer.from(answerHeaderJson(kid, full)).toString('base64url'));
          expect(JSON.parse(answerHeaderJson(kid, full))).toEqual({ alg: 'EdDSA', kid, typ: 'licensing-answer+jws', ...full });
        }
      }
    }
  });

  test('the native and the portable base64url agree, for every length', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 73 + n) & 0xff);
      expect(encodeBase64url(bytes)).toBe(encodeBase64urlPortable(bytes));
      expect(encodeBase64urlPortable(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });
});
