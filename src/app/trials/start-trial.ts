import type { Activation } from '../../domain/activation.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import type { License } from '../../domain/license.ts';
import { onSale, type Product } from '../../domain/product.ts';
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
  const { email, product } = await trialOffer(deps, developerId, input);
  return startOffered(deps, product, { ...input, email });
}

/** The checks a trial passes before anything is stored: a valid e-mail (normalized) and a product on sale offering a trial. */
export async function trialOffer(deps: Pick<Deps, 'products'>, developerId: string, input: { productId: string; email: string }): Promise<{ email: string; product: Product }> {
  const email = normalizeEmail(input.email);
  if (!email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const product = onSale(await deps.products.get(developerId, input.productId));
  if (product.trialDays === null) {
    throw new DomainError('trial_not_offered', 'This product offers no free trial: it can only be bought (its seller can set trialDays to offer one).');
  }
  return { email, product };
}

/** Signs the trial license and has the store keep it with its claims and machine, or nothing (trial_already_used). */
export async function startOffered(
  deps: Omit<TrialDeps, 'rateLimiter'>,
  product: Product,
  input: { email: string; machineFingerprint: string; name?: string | null },
): Promise<StartedTrial> {
  const now = deps.clock.now();
  const customer = { id: deps.ids.next('cus'), email: input.email, phone: null, phoneVerifiedAt: null, createdAt: now };
  const license = await signNewLicense(deps, {
    developerId: product.developerId,
    productId: product.id,
    customerId: customer.id,
    features: product.features,
    issuedAt: now,
    expiresAt: trialExpiry(product.trialDays!, now),
    maxMachines: product.maxMachines,
    trial: true,
    // Both ways here prove the holder: the e-mailed code, or the seller's own server (a secret key).
    proven: true,
  });
  const machine = { id: deps.ids.next('act'), machineFingerprint: input.machineFingerprint, name: input.name ?? null, at: now };
  const mail = receiptFor(deps, await receiptContext(deps, product.developerId, product.id, input.email), { kind: 'trial' })(license);
  const outcome = await deps.trials.start({ customer, license, keyHash: deps.hashing.hash(license.licenseKey), machine, mail });
  if (outcome.kind === 'claimed') throw new TrialAlreadyUsedError(outcome.by);
  return { license: outcome.license, activation: outcome.activation };
}
