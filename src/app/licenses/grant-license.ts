import { InvalidRequestError, NotFoundError } from '../../domain/errors.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { expiryFor, viewLicense, type LicenseView } from '../../domain/license.ts';
import { licenseEntitlements } from './license-entitlements.ts';
import type { Deps } from '../../ports/deps.ts';
import { receiptContext, receiptFor } from '../mail/receipt.ts';
import { issueLicense } from './issue-license.ts';

/** The last millisecond of year 9999: beyond it a key's claims would not be safe integers everywhere. */
export const MAX_EXPIRY = 253_402_300_799_999;

export interface GrantInput {
  productId: string;
  email: string;
  /** Added to the product's features (the license holds the union; docs/entitlements.md). */
  features?: string[];
  /** Defaults to the product's term; null = perpetual. */
  expiresAt?: number | null;
  /** E-mail the customer the receipt with the key (default true). */
  notify?: boolean;
}

/** A license given by hand (beta testers, support): same key format as a sold one. */
export async function grantLicense(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'products' | 'customers' | 'settings' | 'developers' | 'derivedSecrets'>,
  developerId: string,
  input: GrantInput,
): Promise<{ license: LicenseView; licenseKey: string }> {
  const email = normalizeEmail(input.email);
  if (!email) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  const product = await deps.products.get(developerId, input.productId);
  if (!product) throw new NotFoundError('product');
  const now = deps.clock.now();
  if (input.expiresAt != null && (input.expiresAt <= now || input.expiresAt > MAX_EXPIRY)) {
    throw new InvalidRequestError('expiresAt must be in the future, and before the year 10000.', 'expiresAt');
  }
  const customer = await deps.customers.findOrCreate({ id: deps.ids.next('cus'), email, phone: null, phoneVerifiedAt: null, createdAt: now });
  const receipt = input.notify === false ? undefined : receiptFor(deps, await receiptContext(deps, developerId, product.id, customer.email), { kind: 'grant' });
  const terms = {
    developerId,
    productId: product.id,
    customerId: customer.id,
    features: licenseEntitlements(product, input.features, 'features'),
    issuedAt: now,
    expiresAt: input.expiresAt !== undefined ? input.expiresAt : expiryFor(product.licenseDays, now),
    maxMachines: product.maxMachines,
  };
  const license = await issueLicense(deps, terms, undefined, receipt);
  return { license: viewLicense(license, now), licenseKey: license.licenseKey };
}
