import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { depsFor, sqliteDeps } from '../support/deps.ts';
import { STORE_FACTORIES } from '../contracts/stores.ts';
import { seller, testApi, type TestApi } from '../support/http.ts';

const MACHINES = Array.from({ length: 24 }, (_, i) => `machine-${String(i).padStart(2, '0')}`);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** 24 first validations of one license, fired together through app.handle. */
async function race(api: TestApi) {
  const s = await seller(api);
  const { license, licenseKey } = await s.grant();
  const replies = await Promise.all(
    MACHINES.map((machineFingerprint) =>
      api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } }),
    ),
  );
  const stored = await api.call('GET', `/licenses/${license.id}`, { key: s.apiKey });
  return { replies, stored, s, licenseKey };
}

function expectOneWinner({ replies, stored }: Awaited<ReturnType<typeof race>>) {
  expect(replies.every((r) => r.status === 200)).toBe(true);
  const winners = MACHINES.filter((_, i) => replies[i]!.body.valid === true);
  const losers = replies.filter((r) => r.body.valid === false);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(23);
  for (const loser of losers) expect(loser.body).toEqual({ valid: false, reason: 'machine_mismatch' });
  expect(stored.body.machineFingerprint).toBe(winners[0]!);
  return winners[0]!;
}

describe('24 concurrent first validations with different fingerprints', () => {
  test('in-memory SQLite: exactly one valid, 23 machine_mismatch, and the license is bound to the winner', async () => {
    expectOneWinner(await race(testApi()));
  });

  test('SQLite file: exactly one valid, 23 machine_mismatch, and the license is bound to the winner', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'licensing-race-'));
    dirs.push(dir);
    const { deps, store } = sqliteDeps(join(dir, 'race.db'));
    try {
      expectOneWinner(await race(testApi({ deps })));
    } finally {
      await store.close();
    }
  });

  test('afterwards the winner keeps validating and the losers keep getting machine_mismatch', async () => {
    const api = testApi();
    const result = await race(api);
    const winner = expectOneWinner(result);
    const loser = MACHINES.find((m) => m !== winner)!;
    const again = (machineFingerprint: string) =>
      api.call('POST', '/licenses/validate', { key: result.s.publishableKey, body: { licenseKey: result.licenseKey, machineFingerprint } });
    expect((await again(winner)).body.valid).toBe(true);
    expect((await again(loser)).body).toEqual({ valid: false, reason: 'machine_mismatch' });
  });
});

describe('N machines: 3×N concurrent first validations with distinct fingerprints, on every store', () => {
  const SLOTS = 3;
  for (const factory of STORE_FACTORIES) {
    test(`${factory.name}: exactly N valid, the rest machine_mismatch, N activations stored`, async () => {
      const opened = await factory.open();
      try {
        const api = testApi({ deps: depsFor(opened.store) });
        const s = await seller(api);
        await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { maxMachines: SLOTS } });
        const { license, licenseKey } = await s.grant();
        // A machine activated and removed by the seller first: the owner store's cache holds the license (and must have forgotten that machine) as the race starts.
        const warm = await api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey, machineFingerprint: 'warm-up' } });
        await api.call('DELETE', `/licenses/${license.id}/activations/${warm.body.activation.id}`, { key: s.apiKey });
        const machines = Array.from({ length: 3 * SLOTS }, (_, i) => `machine-${i}`);

        const replies = await Promise.all(machines.map((machineFingerprint) => api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } })));

        expect(replies.filter((r) => r.body.valid === true)).toHaveLength(SLOTS);
        expect(replies.filter((r) => r.body.reason === 'machine_mismatch')).toHaveLength(2 * SLOTS);
        expect((await api.call('GET', `/licenses/${license.id}/activations`, { key: s.apiKey })).body.data).toHaveLength(SLOTS);
        const winners = machines.filter((_, i) => replies[i]!.body.valid === true);
        for (const machineFingerprint of machines) {
          const again = await api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } });
          expect({ machineFingerprint, valid: again.body.valid }).toEqual({ machineFingerprint, valid: winners.includes(machineFingerprint) });
        }
      } finally {
        await opened.dispose();
      }
    });
  }
});
