import { describe, expect, test } from 'bun:test';
import { decodeBase64url, encodeBase64url, utf8 } from '../../src/domain/base64url.ts';
import { assembleLicenseKey, LICENSE_KEY_ALG, parseLicenseKey, signingInputFor, verifyLicenseKey } from '../../src/domain/license-key.ts';
import { CLAIMS, craft, ed25519, jsonSegment } from './license-key-fixture.ts';

const KID = 'kid_current';
const key = ed25519();
const verifierFor = (kid: string) => (kid === KID ? key.verifier : undefined);

function issue(claims = CLAIMS, kid = KID, signer = key): string {
  const input = signingInputFor(kid, claims);
  return assembleLicenseKey(input, signer.signBytes(utf8.encode(input)));
}

const segments = (licenseKey: string) => licenseKey.split('.') as [string, string, string];
const decodeJson = (segment: string) => JSON.parse(utf8.decode(decodeBase64url(segment)!)!);

describe('license key round trip', () => {
  test('a key signed with Ed25519 verifies and yields its claims and header', () => {
    const result = verifyLicenseKey(issue(), verifierFor);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.key.claims).toEqual(CLAIMS);
    expect(result.key.header).toEqual({ alg: 'EdDSA', kid: KID, typ: 'JWT' });
    expect(result.key.signature.length).toBe(64);
  });

  test('a perpetual license (expiresAt null) round trips', () => {
    const result = verifyLicenseKey(issue({ ...CLAIMS, expiresAt: null, features: [] }), verifierFor);
    expect(result.ok && result.key.claims).toEqual({ ...CLAIMS, expiresAt: null, features: [] });
  });

  test('the key is a compact JWS: three base64url segments, alg EdDSA, kid in the header', () => {
    const [h, p, s] = segments(issue());
    expect(decodeJson(h)).toEqual({ alg: LICENSE_KEY_ALG, kid: KID, typ: 'JWT' });
    expect(decodeJson(p)).toEqual(CLAIMS);
    expect(decodeBase64url(s)!.length).toBe(64);
  });

  test('only the contract claims are signed, whatever else the caller passes', () => {
    const input = signingInputFor(KID, { ...CLAIMS, developerSecret: 'x' } as typeof CLAIMS);
    expect(Object.keys(decodeJson(input.split('.')[1]!)).sort()).toEqual(
      ['expiresAt', 'features', 'id', 'iss', 'issuedAt', 'productId', 'sub'],
    );
  });

  test('parsing alone (no signature check) reads the claims for display', () => {
    const parsed = parseLicenseKey(issue(CLAIMS, 'kid_nobody_knows'));
    expect(parsed.ok && parsed.key.claims.id).toBe('lic_1');
  });
});

describe('tampering and unknown keys are invalid_signature', () => {
  test('a tampered payload (extra feature, same signature) is invalid_signature', () => {
    const [h, , s] = segments(issue());
    const forged = `${h}.${jsonSegment({ ...CLAIMS, features: ['pro', 'export', 'enterprise'] })}.${s}`;
    expect(verifyLicenseKey(forged, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('a tampered payload (later expiry) is invalid_signature', () => {
    const [h, , s] = segments(issue());
    const forged = `${h}.${jsonSegment({ ...CLAIMS, expiresAt: null })}.${s}`;
    expect(verifyLicenseKey(forged, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('a signature with one flipped bit is invalid_signature', () => {
    const [h, p, s] = segments(issue());
    const signature = decodeBase64url(s)!;
    signature[10]! ^= 0x01;
    expect(verifyLicenseKey(`${h}.${p}.${encodeBase64url(signature)}`, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('a key signed by another key pair under the same kid is invalid_signature', () => {
    expect(verifyLicenseKey(issue(CLAIMS, KID, ed25519()), verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('an unknown kid is invalid_signature', () => {
    expect(verifyLicenseKey(issue(CLAIMS, 'kid_unknown'), verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('a changed kid in the header (re-pointing to another key) is invalid_signature', () => {
    const other = ed25519();
    const [, p, s] = segments(issue());
    const forged = `${jsonSegment({ alg: 'EdDSA', kid: 'kid_other', typ: 'JWT' })}.${p}.${s}`;
    expect(verifyLicenseKey(forged, (kid) => (kid === 'kid_other' ? other.verifier : undefined))).toEqual({
      ok: false,
      reason: 'invalid_signature',
    });
  });
});

describe('wrong algorithm or signature size is invalid_signature', () => {
  test.each(['HS256', 'none', 'ES256', 'RS256', 'eddsa', 'Ed25519'])('a header with alg %s is refused', (alg) => {
    const forged = craft(key.signBytes, { alg, kid: KID, typ: 'JWT' }, CLAIMS);
    expect(verifyLicenseKey(forged, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
    expect(parseLicenseKey(forged)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('an unsigned token (alg none, empty signature) is refused', () => {
    const unsigned = `${jsonSegment({ alg: 'none', kid: KID })}.${jsonSegment(CLAIMS)}.`;
    expect(verifyLicenseKey(unsigned, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test.each([0, 32, 63, 65, 128])('a %i-byte signature is refused', (length) => {
    const [h, p] = segments(issue());
    const forged = `${h}.${p}.${encodeBase64url(new Uint8Array(length).fill(7))}`;
    expect(verifyLicenseKey(forged, verifierFor)).toEqual({ ok: false, reason: 'invalid_signature' });
  });

  test('the verifier is never asked about a key with the wrong algorithm', () => {
    let asked = false;
    const forged = craft(key.signBytes, { alg: 'HS256', kid: KID }, CLAIMS);
    verifyLicenseKey(forged, () => {
      asked = true;
      return key.verifier;
    });
    expect(asked).toBe(false);
  });
});
