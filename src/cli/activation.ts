import { NEVER_VERIFIED_ONLINE, type LicenseCheckResult, type LicenseClient, type LicenseDetails } from '../client/index.ts';
import { clientFor, keyClaims, productNameOf, publishableKey, rememberLicense, rememberPublishableKey, requirePublishableKey, sellerJwks } from './buyer-common.ts';
import type { ActivatedLicense } from './config.ts';
import type { Context } from './context.ts';
import { CliError } from './errors.ts';
import { machineName, nameThisMachine } from './machine-name.ts';
import { fields, list, when } from './output.ts';

/** Whether the API answers at all: decides if a check may start over online without losing the cached verdict. */
async function reachable(ctx: Context): Promise<boolean> {
  try {
    await ctx.api.request('GET', '/health');
    return true;
  } catch {
    return false;
  }
}

/**
 * The library's check() for one stored license, as an application of the key's own product (the
 * CLI has only the key). With `refresh` (the default for this program) a reachable API is asked
 * even within the library's 24-hour cache (check({ online: true })). An unreachable API leaves the
 * cache alone, so the last verdict stands.
 * `before` runs on the client just before the check (activate names the machine there).
 */
export async function checkStored(
  ctx: Context,
  productId: string,
  stored: ActivatedLicense,
  refresh: boolean,
  before?: (client: LicenseClient) => Promise<void>,
): Promise<LicenseCheckResult> {
  const key = requirePublishableKey(ctx, stored.developerId, stored);
  const jwks = await sellerJwks(ctx, stored.developerId, stored);
  const client = clientFor(ctx, productId, { publishableKey: key, jwks });
  const cached = await client.getCachedLicenseKey();
  if (cached !== stored.licenseKey) await client.storeLicenseKey(stored.licenseKey);
  // Storing the key again keeps the last verdict (a revocation stands), so a refresh asks for a new one.
  const online = refresh && (await reachable(ctx));
  await before?.(client);
  const result = await client.check(online ? { online: true } : {});
  // What checking needs next time, even offline. A key the API refused (401/403) is not remembered.
  const { publishableKey: legacy, ...entry } = stored;
  const refused = refusedBy(result);
  // A renewal's key, verified by the library against the same seller and license, replaces the stored one.
  const licenseKey = result.valid && result.renewedLicenseKey ? result.renewedLicenseKey : entry.licenseKey;
  ctx.config.licenses![productId] = { ...entry, licenseKey, ...(refused && legacy ? { publishableKey: legacy } : {}), jwks };
  if (!refused) rememberPublishableKey(ctx, stored.developerId, key);
  return result;
}

/** The API refused the check itself (a wrong key, a wrong address): not "never confirmed", which only says it was unreachable so far. */
const refusedBy = (result: LicenseCheckResult): boolean => result.warning !== undefined && result.warning.code !== NEVER_VERIFIED_ONLINE;

/** True only when the API itself said valid for this machine's fingerprint: the license is bound here. */
export const boundHere = (result: LicenseCheckResult): boolean => result.valid && !result.offlineVerified && result.warning === undefined;

export type Activation =
  | { activated: true; check: LicenseCheckResult }
  | { activated: false; why: 'no_publishable_key' | 'unreachable' | 'not_confirmed' | 'invalid'; check?: LicenseCheckResult; code?: string };

/**
 * A bought key is kept for `status`, then validated online once with this machine's fingerprint,
 * which is what binds it. Only that answer (valid, from the API) counts as activated.
 */
export async function activateBought(ctx: Context, licenseKey: string, productName?: string): Promise<Activation> {
  const { productId, developerId } = keyClaims(licenseKey);
  const entry = rememberLicense(ctx, licenseKey, { productName });
  ctx.save();
  if (!publishableKey(ctx, developerId, entry)) return { activated: false, why: 'no_publishable_key' };
  try {
    // The slot is taken under the host name, as `licensing activate` does, so `licensing devices` can tell machines apart.
    const check = await checkStored(ctx, productId, entry, true, (client) => nameThisMachine(client, machineName(ctx), {}));
    ctx.save();
    if (boundHere(check)) return { activated: true, check };
    return { activated: false, why: check.valid ? (check.offlineVerified && !refusedBy(check) ? 'unreachable' : 'not_confirmed') : 'invalid', check };
  } catch (error) {
    // The purchase stands whatever happens here: the key is saved, and `status` activates it later.
    if (!(error instanceof CliError)) throw error;
    return error.code === 'network_unreachable' ? { activated: false, why: 'unreachable' } : { activated: false, why: 'not_confirmed', code: error.code };
  }
}

/** What the buyer reads after "Bought …": activated here, or what to run to activate it. */
export function activationLine(activation: Activation, productId: string): string {
  if (activation.activated) return 'The license is activated on this machine.';
  switch (activation.why) {
    case 'no_publishable_key':
      return `It is not activated on this machine yet: run "licensing status ${productId} --publishable-key <the seller's pk_…>".`;
    case 'unreachable':
      return `It is not activated on this machine yet (the API could not be reached): run "licensing status ${productId}" later.`;
    case 'not_confirmed':
      return `It is not activated on this machine: the check failed (${activation.check?.warning?.code ?? activation.code ?? 'no answer'}); check the publishable key, then run "licensing status ${productId}".`;
    case 'invalid':
      return `It is not activated on this machine: ${activation.check?.reason ?? 'invalid'}.`;
  }
}

type Bought = { licenseKey: string; license: LicenseDetails };

/**
 * The license is kept (for `status`, and listed with the buyer's licenses), then activated: checked
 * online once with this machine's fingerprint. "Activated" is said only when the API said valid.
 */
export async function keepBought(ctx: Context, result: Bought, productName?: string): Promise<void> {
  const name = productName ?? result.license.productName ?? productNameOf(ctx, result.license.productId);
  const buyer = ctx.config.buyer;
  if (buyer) {
    const { license, licenseKey } = result;
    const entry = { ...license, productName: name ?? license.productName, licenseKey };
    buyer.licenses = [...buyer.licenses.filter((l) => l.id !== license.id), entry];
  }
  const activation = await activateBought(ctx, result.licenseKey, name);
  const { license } = result;
  ctx.result({ ...result, ...(name ? { productName: name } : {}), activated: activation.activated, ...(activation.activated ? {} : { notActivated: activation.why }) }, () =>
    [
      `Bought ${name ?? license.productId}. ${activationLine(activation, license.productId)}`,
      fields([
        ['License', license.id],
        ['Features', list(license.features)],
        ['Expires', when(license.expiresAt)],
        ['License key', ''],
      ]),
      result.licenseKey,
    ].join('\n'),
  );
}
