import { randomHex, type Call } from './client.ts';
import type { Ledger } from './ledger.ts';
import type { Shop } from './setup.ts';
import type { StoreFacts } from './stores.ts';

/** Runs `check` over the items, a few at a time, collecting what each found broken. */
async function eachOf<T>(items: T[], check: (item: T) => Promise<string[]>, parallel = 8): Promise<string[]> {
  const broken: string[] = [];
  for (let i = 0; i < items.length; i += parallel) for (const found of await Promise.all(items.slice(i, i + parallel).map(check))) broken.push(...found);
  return broken;
}

/**
 * After the restart, over HTTP: every acknowledged promise holds. Paid sessions are complete with the
 * license they reported; confirmed purchases confirm again to the same license (charging nothing);
 * every license handed out exists, is active and validates; every acknowledged binding still holds
 * (its fingerprint is valid, any other is machine_mismatch) and every acknowledged loser still loses.
 * A license whose binding was never acknowledged may be bound only to a fingerprint that was sent.
 */
export async function brokenPromises(call: Call, shop: Shop, ledger: Ledger): Promise<string[]> {
  const validate = async (licenseKey: string, machineFingerprint: string) =>
    (await call('POST', '/licenses/validate', { key: shop.publishableKey, body: { licenseKey, machineFingerprint } })).body;

  const sessions = await eachOf([...ledger.paidSessions], async (sessionId) => {
    const { status, body } = await call('GET', `/checkout/status/${sessionId}`);
    if (status !== 200 || body.status !== 'complete') return [`paid session ${sessionId} polls ${status} ${JSON.stringify(body)}`];
    const reported = ledger.sessionLicenses.get(sessionId);
    if (reported && reported !== body.license.id) return [`session ${sessionId} reported ${reported}, now ${body.license.id}`];
    if (!reported) ledger.addLicense(body.license.id, body.licenseKey, 'checkout');
    return [];
  });

  const purchases = await eachOf([...ledger.confirmed], async ([purchaseId, { licenseId, token, body }]) => {
    const again = await call('POST', '/purchase/confirm', { bearer: token, body });
    return again.status === 200 && again.body.license.id === licenseId ? [] : [`purchase ${purchaseId} confirmed to ${licenseId}, again: ${again.status} ${JSON.stringify(again.body)}`];
  });

  const licenses = await eachOf([...ledger.licenses], async ([licenseId, { licenseKey, origin }]) => {
    const read = await call('GET', `/licenses/${licenseId}`, { key: shop.apiKey });
    if (read.status !== 200 || read.body.status !== 'active') return [`${origin} license ${licenseId} reads ${read.status} ${JSON.stringify(read.body)}`];
    const winner = ledger.winners.get(licenseId);
    const stranger = await validate(licenseKey, randomHex(32));
    if (winner) {
      const onWinner = await validate(licenseKey, winner);
      if (onWinner.valid !== true) return [`binding of ${licenseId} to ${winner} lost: ${JSON.stringify(onWinner)}`];
      return stranger.reason === 'machine_mismatch' ? [] : [`bound ${licenseId} answers a stranger ${JSON.stringify(stranger)}`];
    }
    if (stranger.valid === true) return [];
    const tried = [...(ledger.tried.get(licenseId) ?? [])];
    if (stranger.reason !== 'machine_mismatch' || tried.length === 0) return [`${origin} license ${licenseId} validates ${JSON.stringify(stranger)}`];
    // Bound by a validation the kill cut off: to exactly one of the fingerprints that were sent.
    const valid = (await Promise.all(tried.map((fp) => validate(licenseKey, fp)))).filter((r) => r.valid === true);
    return valid.length === 1 ? [] : [`${licenseId} is bound to none of the ${tried.length} fingerprints sent for it`];
  });

  const losers = await eachOf(ledger.losers, async ({ licenseId, fingerprint }) => {
    const again = await validate(ledger.licenses.get(licenseId)!.licenseKey, fingerprint);
    return again.reason === 'machine_mismatch' ? [] : [`${fingerprint} lost ${licenseId} before the crash, now: ${JSON.stringify(again)}`];
  });

  return [...sessions, ...purchases, ...licenses, ...losers];
}

/** The store itself agrees: one license per session and per purchase, one payment per order, bindings as acknowledged. */
export function brokenInStore(facts: StoreFacts, ledger: Ledger): string[] {
  const broken: string[] = [];
  for (const [name, rows] of Object.entries(facts)) {
    if (Array.isArray(rows) && rows.length > 0) broken.push(`${name}: ${JSON.stringify(rows)}`);
  }
  for (const licenseId of ledger.licenses.keys()) if (!facts.bindings.has(licenseId)) broken.push(`license ${licenseId} is not in the store`);
  for (const [licenseId, winner] of ledger.winners) {
    const stored = facts.bindings.get(licenseId);
    if (stored !== winner) broken.push(`license ${licenseId} is stored bound to ${stored}, acknowledged to ${winner}`);
  }
  return broken;
}
