import { describe, expect, test } from 'bun:test';
import { expectError, world } from './fixtures.ts';

/** The buyer's portal route for a machine with no network (docs/machine-files.md): the offline request file in, a machine file out. */
describe('POST /customer/licenses/:id/machine-file', () => {
  const post = (w: Awaited<ReturnType<typeof world>>, body: Record<string, unknown>, id = w.customer.license.id, headers = w.customer.auth) =>
    w.api.call('POST', `/customer/licenses/${id}/machine-file`, { headers, body });

  test('the buyer’s own license and its current key: 201 with the file, recorded for the seller; the machine holds its slot', async () => {
    const w = await world();
    const reply = await post(w, { licenseKey: w.customer.license.licenseKey, machineFingerprint: w.customer.device, ttlDays: 7 });
    expect({ status: reply.status, body: reply.status === 201 ? null : reply.body }).toEqual({ status: 201, body: null });
    expect(reply.body.machineFile.split('.')).toHaveLength(3);
    expect(reply.body.file).toMatchObject({ licenseId: w.customer.license.id });
    expect(reply.body.activation.machineFingerprint).toBe(w.customer.device); // the machine bound already keeps its one slot
    const listed = await w.api.call('GET', `/licenses/${w.customer.license.id}/machine-files`, { key: w.mine.apiKey });
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([reply.body.file.id]);
  });

  test('another customer’s license, or a key that is not this license’s: 404; no token: 401; a forged id or a NUL byte: 400 or 404, never 500', async () => {
    const w = await world();
    const body = { licenseKey: w.customer.license.licenseKey, machineFingerprint: w.customer.device };
    expectError(await post(w, body, w.license.id), 404, 'not_found'); // the seller's example license, not the buyer's
    expectError(await post(w, { ...body, licenseKey: w.licenseKey }), 404, 'not_found');
    expectError(await post(w, body, w.customer.license.id, {}), 401, 'unauthorized');
    for (const id of ['lic_doesnotexist000000000', 'lic_%00x', 'x'.repeat(300)]) {
      const reply = await post(w, body, id);
      expect([400, 404]).toContain(reply.status);
    }
    expectError(await post(w, { ...body, machineFingerprint: 'fp\u0000' }), 400, 'invalid_request');
  });

  test('counted with the holder’s and the seller’s files: the 11th in a day is 429', async () => {
    const w = await world();
    const body = { licenseKey: w.customer.license.licenseKey, machineFingerprint: w.customer.device };
    for (let i = 0; i < 10; i++) expect((await post(w, body)).status).toBe(201);
    expectError(await post(w, body), 429, 'rate_limited');
  });
});
