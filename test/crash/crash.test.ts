import { describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { brokenInStore, brokenPromises } from './checks.ts';
import { client } from './client.ts';
import { Ledger } from './ledger.ts';
import { openShop } from './setup.ts';
import { postgresCrashStore, sqliteCrashStore, type CrashStore } from './stores.ts';
import { drive } from './workload.ts';

/**
 * The real server is driven with first validations, sandbox checkouts and terminal purchases at once,
 * killed with SIGKILL while requests are in flight, and restarted on the same store. Whatever it
 * acknowledged before dying must still hold; what it did not acknowledge may or may not have happened,
 * but never twice.
 */

// The validation rate limit is another test's subject: here it would only cut the traffic short.
const ENV = { LOG_LEVEL: 'warn', VALIDATE_RATE_LIMIT_PER_MINUTE: '0' };

/** A few seconds of traffic, and at least one promise of every kind, before the kill. */
async function untilEveryKindPromised(ledger: Ledger, minimumMs: number, timeoutMs: number) {
  const started = Date.now();
  const enough = () => ledger.hasPromisesOfEveryKind() && Date.now() - started >= minimumMs;
  while (!enough() && ledger.violations.length === 0 && Date.now() - started < timeoutMs) await Bun.sleep(20);
}

async function crashRun(store: CrashStore) {
  const ledger = new Ledger();
  let server: RunningServer | undefined = await startServer({ ...store.env, ...ENV });
  try {
    const shop = await openShop(client(server.url), { grants: 24, buyers: 2 });
    for (const grant of shop.grants) ledger.addLicense(grant.id, grant.licenseKey, 'grant');

    let killed = false;
    const driving = drive(client(server.url), shop, ledger, () => killed);
    await untilEveryKindPromised(ledger, 1_500, 20_000);
    const killAfterMs = Math.floor(Math.random() * 1_500);
    await Bun.sleep(killAfterMs);
    const inFlightAtKill = ledger.inFlight;
    killed = true;
    server.kill('SIGKILL');
    await server.exited;
    await driving;
    const crashedFiles = store.integrityOfCrashedFiles?.() ?? ['ok'];

    server = await startServer({ ...store.env, ...ENV });
    const call = client(server.url);
    const health = await call('GET', '/health');
    const broken = await brokenPromises(call, shop, ledger);
    await server.stop();
    server = undefined;
    const facts = await store.facts();
    const integrity = store.integrity?.() ?? ['ok'];
    const run = { killAfterMs, inFlightAtKill, requests: ledger.requests, lost: ledger.lost, licenses: ledger.licenses.size, bindings: ledger.winners.size, purchases: ledger.confirmed.size, paidSessions: ledger.paidSessions.size };
    return { ledger, run, crashedFiles, health, broken, facts, integrity };
  } finally {
    if (server) {
      server.kill('SIGKILL');
      await server.exited;
    }
  }
}

describe.each([
  ['SQLite', sqliteCrashStore],
  ['PostgreSQL', postgresCrashStore],
] as const)('kill -9 mid-flight, then restart, on %s', (_, openStore) => {
  test('every acknowledged license, binding, checkout and purchase survives; no session or purchase has two licenses or two payments', async () => {
    const store = openStore();
    try {
      const { ledger, run, crashedFiles, health, broken, facts, integrity } = await crashRun(store);
      try {
        expect(ledger.violations).toEqual([]);
        expect(ledger.hasPromisesOfEveryKind()).toBe(true);
        expect(run.inFlightAtKill).toBeGreaterThan(0);
        expect(run.lost).toBeGreaterThan(0);
        expect(crashedFiles).toEqual(['ok']);
        expect(health).toEqual({ status: 200, body: { status: 'ok' } });
        expect(broken).toEqual([]);
        expect(brokenInStore(facts, ledger)).toEqual([]);
        expect(integrity).toEqual(['ok']);
      } catch (error) {
        console.error(`crash run on ${store.name}:`, run);
        throw error;
      }
    } finally {
      await store.dispose();
    }
  }, 90_000);
});
