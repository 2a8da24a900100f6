import { describe, expect, test } from 'bun:test';
import { seller, testApi, type TestApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

/** docs/machine-files.md, "Migration": a machine bound by its legacy fingerprint moves to its new one. */
const LEGACY = 'l'.repeat(64);
const NEW = 'n'.repeat(64);

async function boundByLegacy(api: TestApi = testApi()) {
  const s = await seller(api);
  const { license, licenseKey } = await s.grant();
  const validate = (body: Record<string, unknown>) => api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, ...body } });
  expect((await validate({ machineFingerprint: LEGACY })).body.valid).toBe(true);
  const machines = async () => (await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body.data as { id: string; machineFingerprint: string }[];
  const [before] = await machines();
  return { api, s, license, licenseKey, validate, machines, before: before! };
}

describe('legacyFingerprint', () => {
  test('validate: a full license bound by the legacy fingerprint is valid for the new one, and the same activation moves to it', async () => {
    const { validate, machines, before } = await boundByLegacy();
    expect((await validate({ machineFingerprint: NEW })).body).toEqual({ valid: false, reason: 'machine_mismatch' });
    expect((await validate({ machineFingerprint: NEW, legacyFingerprint: LEGACY })).body.valid).toBe(true);
    expect(await machines()).toEqual([expect.objectContaining({ id: before.id, machineFingerprint: NEW })]);
    expect((await validate({ machineFingerprint: NEW })).body.valid).toBe(true);
    expect((await validate({ machineFingerprint: LEGACY })).body).toEqual({ valid: false, reason: 'machine_mismatch' });
  });

  test('activate and machine-file move it too; no deactivation is counted', async () => {
    const { api, s, licenseKey, machines, before } = await boundByLegacy();
    const activated = await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: NEW, legacyFingerprint: LEGACY } });
    expect(activated.status).toBe(200);
    expect(activated.body.activation).toMatchObject({ id: before.id, machineFingerprint: NEW });
    const other = await boundByLegacy(api);
    const file = await api.call('POST', '/licenses/machine-file', { key: other.s.publishableKey, body: { licenseKey: other.licenseKey, machineFingerprint: NEW, legacyFingerprint: LEGACY } });
    expect(file.status).toBe(201);
    expect(await other.machines()).toEqual([expect.objectContaining({ id: other.before.id, machineFingerprint: NEW })]);
    expect(await machines()).toHaveLength(1);
  });

  test('a legacy fingerprint that holds nothing changes nothing; when the new one is bound already the legacy one stays', async () => {
    const { api, s, license, licenseKey, validate, machines } = await boundByLegacy();
    await api.call('PATCH', `/licenses/${license.id}`, { key: s.apiKey, body: { maxMachines: 3 } });
    expect((await validate({ machineFingerprint: NEW, legacyFingerprint: 'x'.repeat(64) })).body.valid).toBe(true);
    expect((await validate({ machineFingerprint: NEW, legacyFingerprint: LEGACY })).body.valid).toBe(true);
    expect((await machines()).map((m) => m.machineFingerprint).sort()).toEqual([LEGACY, NEW].sort());
    expect(licenseKey).toBeTruthy();
  });

  test('bad values (empty, spaces, NUL, too long, not a string): JSON 400 naming the field', async () => {
    const { validate } = await boundByLegacy();
    for (const legacyFingerprint of ['', 'a b', 'x\u0000', 'z'.repeat(257), 7]) {
      const reply = await validate({ machineFingerprint: NEW, legacyFingerprint });
      expectError(reply, 400, 'invalid_request');
      // A NUL byte is refused before any schema, for every field alike.
      if (legacyFingerprint !== 'x\u0000') expect(reply.body.error.details.issues[0].field).toBe('legacyFingerprint');
    }
  });
});
