import { expect, test } from 'bun:test';
import { getSchemaValidator } from 'elysia';
import { ValidationResult } from '../../src/adapters/http/routes/licenses/schemas.ts';
import { seller, testApi } from '../support/http.ts';

// The validate route skips run-time response validation for speed; this test holds it to its schema.
const conforms = getSchemaValidator(ValidationResult)!;

test('every validation outcome matches the documented ValidationResult schema', async () => {
  const api = testApi();
  const s = await seller(api);
  const other = await seller(api);
  const bound = await s.grant();
  const revoked = await s.grant();
  const expiring = await s.grant({ expiresAt: api.clock.now() + 1_000 });
  const validate = (licenseKey: string, machineFingerprint = 'machine-a', key = s.publishableKey, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/licenses/validate', { key, body: { licenseKey, machineFingerprint, ...extra } });
  await api.call('POST', `/licenses/${revoked.license.id}/revoke`, { key: s.apiKey });

  const outcomes = [
    await validate(bound.licenseKey),
    await validate(bound.licenseKey, 'machine-b'),
    await validate(revoked.licenseKey),
    await validate('not.a.key'),
    await validate(`${bound.licenseKey.slice(0, -4)}AAAA`),
    await validate(bound.licenseKey, 'machine-a', other.publishableKey),
    await validate(bound.licenseKey, 'machine-a', s.publishableKey, { scope: { entitlements: ['pro', 'sync'] } }),
  ];
  api.clock.advance(1_000);
  outcomes.push(await validate(expiring.licenseKey));

  expect(outcomes.map((o) => o.body.valid === true || o.body.reason)).toEqual([
    true, 'machine_mismatch', 'revoked', 'invalid_format', 'invalid_signature', 'not_found', 'not_found', 'expired',
  ]);
  expect(outcomes[6]!.body.missingEntitlements).toEqual(['sync']);
  for (const outcome of outcomes) expect({ body: outcome.body, conforms: conforms.Check(outcome.body) }).toEqual({ body: outcome.body, conforms: true });
});

test('the schema check bites: a reason outside the set, or a missing license, does not conform', () => {
  expect(conforms.Check({ valid: false, reason: 'network_error' })).toBe(false);
  expect(conforms.Check({ valid: true })).toBe(false);
  expect(conforms.Check({ valid: false, reason: 'not_found', missingEntitlements: 'sync' })).toBe(false);
  expect(conforms.Check({ valid: true, license: { id: 'lic_1', status: 'active', features: [], expiresAt: null } })).toBe(true);
});
