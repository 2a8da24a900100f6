import { parseLicenseKey, type KeyProblem } from '../../domain/license-key.ts';
import { LAST_SEEN_REFRESH_MS, movable } from '../../domain/activation.ts';
import { licenseStatus, type License, type LicenseStatus } from '../../domain/license.ts';
import { inProductScope } from '../../domain/product.ts';
import { judgeValidation, type ValidationVerdict } from '../../domain/validation.ts';
import type { Deps } from '../../ports/deps.ts';
import type { LicenseState } from '../../ports/license-repository.ts';
import { countValidation } from './validation-limit.ts';

export type ValidationResult =
  | {
      valid: true;
      /** `licenseKey`: the license's current key, when the one presented was replaced (docs/renewals.md). */
      license: { id: string; status: LicenseStatus; features: string[]; expiresAt: number | null; licenseKey?: string };
    }
  | { valid: false; reason: Exclude<ValidationVerdict, { valid: true }>['reason']; missingEntitlements?: string[] };

type ValidateDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'rateLimiter' | 'settings' | 'lastSeen'>;

/**
 * Online validation. A key whose digest the store knows is byte for byte one this service signed,
 * so the hot path is one indexed read; any other key is parsed and its signature checked, in the
 * contract's precedence order (a genuine key a reissue replaced is one of those: valid, and the
 * answer carries the current key). Once the key is resolved, one rate-limit hit counts the call against
 * the license it names, or, when it names none of the caller's, against the client's address.
 * `productIds` (the application's products) is compared after the same read: a key of another
 * product names none of them, exactly as an unknown key (not_found, counted per address, binds nothing).
 * `entitlements` (scope.entitlements) are read from the license as it is now: one it lacks answers
 * not_found with the missing codes, counted against the license, nothing bound.
 */
export async function validateLicense(
  deps: ValidateDeps,
  developerId: string,
  /** clientAddress: or a function giving it, read only when the key names none of the caller's licenses. */
  input: { licenseKey: string; machineFingerprint: string; legacyFingerprint?: string; machineName?: string; clientAddress: string | (() => string); productIds?: readonly string[]; entitlements?: readonly string[] },
): Promise<ValidationResult> {
  const known = await deps.licenses.findStateByKeyHash(deps.hashing.hash(input.licenseKey));
  const { problem, state, current } = known ? { problem: null, state: known, current: null } : await checkUnknownKey(deps, input.licenseKey);
  const license = state && state.developerId === developerId && inProductScope(state.productId, input.productIds) ? state : null;
  await countValidation(deps, license ? { licenseId: license.id } : { address: typeof input.clientAddress === 'string' ? input.clientAddress : input.clientAddress() });
  const now = deps.clock.now();
  // docs/machine-files.md, "Migration": a machine bound by its legacy fingerprint is judged as bound, and moved below.
  const legacy = license ? movable(license.activations, input) : undefined;
  const judged = legacy ? { ...license!, activations: [...license!.activations, { ...legacy, machineFingerprint: input.machineFingerprint }] } : license;
  const verdict = judgeValidation(problem, judged, input.machineFingerprint, now, input.entitlements);
  if (!verdict.valid) return verdict;
  const live = license!;
  if (verdict.binding.kind === 'bind' || legacy) {
    const legacyFingerprint = legacy ? input.legacyFingerprint : undefined;
    const taken = await deps.licenses.activate(live.id, { id: deps.ids.next('act'), machineFingerprint: input.machineFingerprint, name: input.machineName?.trim() || null, at: now, ...(legacyFingerprint && { legacyFingerprint }) });
    // Another request may have taken the last slot since the read: the store's count decides.
    if (taken.kind !== 'created' && taken.kind !== 'existing') return { valid: false, reason: 'machine_mismatch' };
  } else {
    await refreshLastSeen(deps, live, input.machineFingerprint, now);
  }
  const answer = { id: live.id, status: licenseStatus(live, now), features: live.features, expiresAt: live.expiresAt };
  // A known digest is the current key; any other genuine key was replaced by a reissue.
  return { valid: true, license: current ? withCurrentKey(answer, current, input.licenseKey) : answer };
}

/**
 * A replaced key (renewed, converted) still validates, by its signature and the license id it
 * names; the answer hands over the current key, whose claims then describe the license.
 */
function withCurrentKey<T extends { id: string; features: string[]; expiresAt: number | null }>(answer: T, current: License, presented: string) {
  if (current.licenseKey === presented) return answer;
  return { ...answer, features: current.features, expiresAt: current.expiresAt, licenseKey: current.licenseKey };
}

async function checkUnknownKey(
  deps: ValidateDeps,
  licenseKey: string,
): Promise<{ problem: KeyProblem | null; state: LicenseState | null; current: License | null }> {
  const none = { problem: null, state: null, current: null };
  const parsed = parseLicenseKey(licenseKey);
  if (!parsed.ok) return { ...none, problem: parsed.reason };
  const signingKey = await deps.signingKeys.byKid(parsed.key.header.kid);
  const verify = signingKey && deps.signer.verifier(signingKey.publicKey);
  if (!verify || !verify(parsed.key.signingInput, parsed.key.signature)) return { ...none, problem: 'invalid_signature' };
  // docs/key-rotation.md: a key retired as compromised vouches for nothing issued from then on.
  if (signingKey.compromisedAt !== null && parsed.key.claims.issuedAt >= signingKey.compromisedAt) return { ...none, problem: 'invalid_signature' };
  const state = await deps.licenses.findStateById(parsed.key.claims.id);
  // A genuine signature over claims that name another developer's license is not this license.
  if (!state || state.developerId !== signingKey.developerId) return none;
  // The license as it is now: its current key is handed over (withCurrentKey).
  const current = await deps.licenses.findById(state.id);
  if (!current) return none;
  // A converted trial's key is handed the paid key, as a renewal's replaced key is, when its holder
  // was proven (the e-mailed code, or the seller's server). A trial key from before the codes (anyone
  // could start one for any address) names no license once converted: the buyer has the paid key.
  if (parsed.key.claims.trial && !parsed.key.claims.proven && !current.trial) return none;
  return { problem: null, state, current };
}

/**
 * lastSeenAt moves at most once per LAST_SEEN_REFRESH_MS: the usual validation writes nothing. The
 * service's recorder writes it behind the answer, in batches (LastSeenBatch).
 */
async function refreshLastSeen(deps: ValidateDeps, license: LicenseState, machineFingerprint: string, now: number): Promise<void> {
  const activation = license.activations.find((a) => a.machineFingerprint === machineFingerprint);
  if (activation && now - activation.lastSeenAt >= LAST_SEEN_REFRESH_MS) await deps.lastSeen.seen({ licenseId: license.id, machineFingerprint, at: now });
}
