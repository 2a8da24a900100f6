import type { Activation } from '../../domain/activation.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import type { License } from '../../domain/license.ts';
import { onSale } from '../../domain/product.ts';
import { trialExpiry, type TrialClaimKind } from '../../domain/trial.ts';
import type { Deps } from '../../ports/deps.ts';
import { signNewLicense } from '../licenses/issue-license.ts';
import { countFromAddress } from '../limits/address-limits.ts';
import { receiptContext, receiptFor } from '../mail/receipt.ts';

type TrialDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'products' | 'trials' | 'rateLimiter' | 'settings' | 'developers' | 'derivedSecrets'>;

export interface StartTrialInput {
  productId: string;
  email: string;
  machineFingerprint: string;
  name?: string | null;
  /** Counted per address when set (a publishable key); null for the seller's own server (a secret key). */
  clientAddress: string | null;
}

export interface StartedTrial {
  license: License;
  activation: Activation;
}

const ALREADY_USED: Record<TrialClaimKind, string> = {
  email: 'This e-mail address has already had the free trial of this product: buy it to keep using it.',
  machine: 'This machine has already had the free trial of this product: buy it to keep using it.',
};

export class TrialAlreadyUsedError extends DomainError {
  constructor(reason: TrialClaimKind) {
    super('trial_already_used', ALREADY_USED[reason], { reason });
  }
}

/**
 * Starts the product's free trial for an e-mail on this machine: a license like a sold one (trial
 * true, expiring after trialDays, the product's features and machine limit) with this machine
 * activated. The key is signed first; the store then keeps the customer, license, the product's
 * one-per-e-mail and one-per-machine claims, the activation and the receipt to the e-mail in one
 * transaction, or nothing.
 */
export async function startTrial(deps: TrialDeps, developerId: string, input: StartTrialInput): Promise<StartedTrial> {
  // Counted before anything else: a refused start costs the service reads, and bounds guessing.
  if (input.clientAddress !== null) await countFromAddress(deps, 'trial', input.clientAddress);
  const email = normalizeEmail(input.email);
  if (!email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const product = onSale(await deps.products.get(developerId, input.productId));
  if (product.trialDays === null) {
    throw new DomainError('trial_not_offered', 'This product offers no free trial: it can only be bought (its seller can set trialDays to offer one).');
  }
  const now = deps.clock.now();
  const customer = { id: deps.ids.next('cus'), email, phone: null, createdAt: now };
  const license = await signNewLicense(deps, {
    developerId,
    productId: product.id,
    customerId: customer.id,
    features: product.features,
    issuedAt: now,
    expiresAt: trialExpiry(product.trialDays, now),
    maxMachines: product.maxMachines,
    trial: true,
  });
  const machine = { id: deps.ids.next('act'), machineFingerprint: input.machineFingerprint, name: input.name ?? null, at: now };
  const mail = receiptFor(deps, await receiptContext(deps, developerId, product.id, email), { kind: 'trial' })(license);
  const outcome = await deps.trials.start({ customer, license, keyHash: deps.hashing.hash(license.licenseKey), machine, mail });
  if (outcome.kind === 'claimed') throw new TrialAlreadyUsedError(outcome.by);
  return { license: outcome.license, activation: outcome.activation };
}
