import { expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';

test('a granted license validates and binds to the first machine', async () => {
  const api = testApi();
  const s = await seller(api);
  const { licenseKey } = await s.grant();
  const first = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'a' } });
  expect(first.body.valid).toBe(true);
  const second = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'b' } });
  expect(second.body).toEqual({ valid: false, reason: 'machine_mismatch' });
});
