import { DEACTIVATION_WINDOW_MS, type Activation } from '../../domain/activation.ts';
import { DomainError, ForbiddenError, NotFoundError, RateLimitedError } from '../../domain/errors.ts';
import { missingEntitlements } from '../../domain/entitlements.ts';
import { licenseRefusal, type License } from '../../domain/license.ts';
import { inProductScope } from '../../domain/product.ts';
import type { Deps } from '../../ports/deps.ts';
import type { ActivationSelector, LicenseState } from '../../ports/license-repository.ts';
import { TrialAlreadyUsedError } from '../trials/start-trial.ts';
import { countValidation } from './validation-limit.ts';
import { listActivations, type ActivationList } from './seller-activations.ts';

export type HolderDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'licenses' | 'products' | 'rateLimiter' | 'settings'>;

/** Who presents a key: the application's seller, its products (none = any of the seller's) and its address. */
export interface HolderCall {
  developerId: string;
  clientAddress: string;
  productIds?: readonly string[];
}

/**
 * The license whose key the holder presents, as proof they hold it. Counted like a validation. A key
 * of a product the application did not name is an unknown key: 404, counted per address.
 */
export async function heldLicense(deps: HolderDeps, call: HolderCall, licenseKey: string): Promise<LicenseState> {
  // Keys this service issued are stored by digest: any other string, however well signed, names no license to activate.
  const state = await deps.licenses.findStateByKeyHash(deps.hashing.hash(licenseKey));
  const license = state && state.developerId === call.developerId && inProductScope(state.productId, call.productIds) ? state : null;
  const clientAddress = call.clientAddress;
  await countValidation(deps, license ? { licenseId: license.id } : { address: clientAddress });
  if (!license) throw new NotFoundError('license with this key');
  return license;
}

/** A license that validation would refuse takes no machine: 409 conflict with the reason. */
function assertUsable(license: LicenseState, now: number): void {
  const reason = licenseRefusal(license, now);
  if (reason) throw new DomainError('conflict', `This license is ${reason}: it cannot be activated on a machine.`, { reason });
}

/** As validation answers it: not_found for what was asked, with the codes the license lacks. */
function assertEntitled(license: LicenseState, asked: readonly string[] | undefined): void {
  const missing = asked ? missingEntitlements(license.features, asked) : [];
  if (missing.length > 0) throw new DomainError('not_found', `This license lacks ${missing.join(', ')}: it is not one for what was asked.`, { missingEntitlements: missing });
}

export class ActivationLimitError extends DomainError {
  constructor(maxMachines: number | null, activations: Activation[]) {
    super('activation_limit', `This license is active on ${activations.length} of ${maxMachines} machines: deactivate one first (POST /licenses/deactivate), or ask the seller for more.`, {
      maxMachines,
      activations: activations.map(({ id, name }) => ({ id, name })),
    });
  }
}

export interface ActivateInput {
  licenseKey: string;
  machineFingerprint: string;
  name?: string | null;
  /** scope.entitlements: codes the application needs; a license lacking any takes no machine (404 with the missing codes). */
  entitlements?: readonly string[];
  /** docs/machine-files.md, "Migration": the machine's fingerprint by the formula clients used before. */
  legacyFingerprint?: string;
}

/** Takes a slot for this machine; the same machine again gets its activation back (`created` false). */
export async function activateMachine(deps: HolderDeps, call: HolderCall, input: ActivateInput): Promise<{ activation: Activation; created: boolean }> {
  return bindMachine(deps, await heldLicense(deps, call, input.licenseKey), input);
}

/** A slot for this machine on a license already found (activation, a machine file). */
export async function bindMachine(deps: Pick<Deps, 'clock' | 'ids' | 'licenses'>, license: LicenseState, input: Omit<ActivateInput, 'licenseKey'>): Promise<{ activation: Activation; created: boolean }> {
  const now = deps.clock.now();
  assertUsable(license, now);
  assertEntitled(license, input.entitlements);
  const outcome = await deps.licenses.activate(license.id, { id: deps.ids.next('act'), machineFingerprint: input.machineFingerprint, name: input.name ?? null, at: now, ...(input.legacyFingerprint !== undefined && { legacyFingerprint: input.legacyFingerprint }) });
  if (outcome.kind === 'missing') throw new NotFoundError('license with this key');
  if (outcome.kind === 'full') throw new ActivationLimitError(outcome.maxMachines, outcome.activations);
  if (outcome.kind === 'trial_used') throw new TrialAlreadyUsedError('machine');
  return { activation: outcome.activation, created: outcome.kind === 'created' };
}

/**
 * The holder frees this machine's slot, at most the product's deactivationsPer30Days times per
 * rolling 30 days; the store counts and removes in one transaction.
 */
export async function deactivateMachine(
  deps: HolderDeps,
  call: HolderCall,
  input: { licenseKey: string; machineFingerprint: string },
): Promise<Activation> {
  const license = await heldLicense(deps, call, input.licenseKey);
  const full = await deps.licenses.findById(license.id);
  if (!full) throw new NotFoundError('license with this key');
  return deactivateAsHolder(deps, full, { machineFingerprint: input.machineFingerprint });
}

/**
 * The holder's removal (by the license key, or by the logged-in customer): counted against the
 * product's deactivationsPer30Days; the store counts and removes in one transaction.
 */
export async function deactivateAsHolder(
  deps: Pick<Deps, 'clock' | 'licenses' | 'products'>,
  license: Pick<License, 'id' | 'developerId' | 'productId'>,
  which: ActivationSelector,
): Promise<Activation> {
  const product = await deps.products.get(license.developerId, license.productId);
  const limit = product?.deactivationsPer30Days ?? 0;
  if (limit === 0) throw new ForbiddenError('This product lets only its seller remove machines: ask the seller to free this one.');
  const now = deps.clock.now();
  const outcome = await deps.licenses.deactivate(license.id, which, { limit, now, windowMs: DEACTIVATION_WINDOW_MS });
  if (outcome.kind === 'missing') throw new NotFoundError('machineFingerprint' in which ? 'activation for this machine' : 'activation');
  if (outcome.kind === 'quota_exhausted') {
    const seconds = Math.max(1, Math.ceil((outcome.retryAt - now) / 1000));
    throw new RateLimitedError('rate_limited', `This license may be deactivated at most ${limit} times in 30 days; the next one is allowed at ${new Date(outcome.retryAt).toISOString()}. The seller can remove a machine at any time: contact them.`, seconds);
  }
  return outcome.activation;
}

/** The holder's own view of its license's machines (the key is the proof), counted like a validation. */
export async function listHeldActivations(deps: HolderDeps, call: HolderCall, input: { licenseKey: string }): Promise<ActivationList> {
  const license = await heldLicense(deps, call, input.licenseKey);
  return listActivations(deps, call.developerId, license.id);
}
