import type { License } from '../../domain/license.ts';
import { convertibleTrial } from '../../domain/trial.ts';
import type { Deps } from '../../ports/deps.ts';
import { issueLicense, type LicenseTerms } from '../licenses/issue-license.ts';
import { reissueLicense } from '../licenses/reissue-license.ts';
import type { ReceiptFor } from '../mail/receipt.ts';

export type ConvertDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'settings'>;

type Origin = { checkoutSessionId?: string; purchaseId?: string };

/**
 * What every paid path calls instead of issueLicense: when the buyer holds a trial of the product
 * (not revoked; an expired one too), that license becomes the paid one in place (same id, its
 * activations kept, a fresh key with the paid terms, tied to `origin`); otherwise a new license is
 * issued. Terms that are themselves a trial (a subscription bought during the buyer's trial, which
 * keeps its remaining days) take the trial over instead: tied to `origin` and the subscription, still
 * a trial, converted later by the subscription's first charge. Of two purchases racing for one trial, the store lets one convert it; the other finds the
 * trial gone and issues a license of its own, so both buyers' payments are honoured. Either way
 * the receipt is queued with the license's write.
 */
export async function issueOrConvert(deps: ConvertDeps, terms: LicenseTerms, origin: Origin, receipt?: ReceiptFor): Promise<License> {
  const trial = convertibleTrial(await deps.licenses.listByCustomer(terms.customerId), terms.productId);
  if (trial) {
    const converted = await convertTrial(deps, trial.id, terms, origin, receipt);
    if (converted) return converted;
  }
  return issueLicense(deps, terms, origin, receipt);
}

/** The trial with the paid terms; null when another conversion (or a revocation) got there first. */
async function convertTrial(deps: ConvertDeps, licenseId: string, terms: LicenseTerms, origin: Origin, receipt?: ReceiptFor): Promise<License | null> {
  // reissueLicense re-reads and calls `change` again after a lost compare-and-swap: only the last
  // call's verdict tells whether the returned license is this conversion's.
  let ours = false;
  const license = await reissueLicense(
    deps,
    licenseId,
    (current) => {
      ours = current.trial && current.storedStatus === 'active' && current.customerId === terms.customerId && current.subscriptionId === null;
      if (!ours) return null;
      return {
        expiresAt: terms.expiresAt,
        features: terms.features,
        ...(terms.trial ? { adopt: origin } : { convert: origin }),
        subscriptionId: terms.subscriptionId ?? null,
      };
    },
    receipt,
  );
  return ours ? license : null;
}
