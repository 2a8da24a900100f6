import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDeps } from '../support/deps.ts';
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
