import { NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import { hitOrRefuse } from '../limits/address-limits.ts';
import { receiptContext, receiptFor, type ReceiptDeps } from '../mail/receipt.ts';

/** At most this many resends of one license per day (a fixed UTC day window of the shared rate limiter). */
export const RESENDS_PER_DAY = 5;
/** At most this many resends per seller per day, all licenses together: a stolen secret key cannot turn the outbox into a mail cannon. */
export const SELLER_RESENDS_PER_DAY = 1_000;
const DAY_MS = 86_400_000;

/**
 * The seller e-mails a license's key to its customer again (outbox kind `resend`). Counted by the
 * shared rate limiter in one atomic step, so concurrent resends cannot pass the limit. A revoked
 * license may be resent too: the mail says it is revoked (the buyer's record of what they had).
 */
export async function resendReceipt(deps: ReceiptDeps & Pick<Deps, 'licenses' | 'customers' | 'mailOutbox' | 'rateLimiter'>, developerId: string, licenseId: string): Promise<{ queued: true }> {
  const license = await deps.licenses.findById(licenseId);
  if (!license || license.developerId !== developerId) throw new NotFoundError('license');
  await hitOrRefuse(deps, `resend:license:${license.id}`, RESENDS_PER_DAY, DAY_MS, (limit, seconds) =>
    `This license's key was already resent ${limit} times today. Try again in ${seconds} seconds.`,
  );
  await hitOrRefuse(deps, `resend:seller:${developerId}`, SELLER_RESENDS_PER_DAY, DAY_MS, (limit, seconds) =>
    `Your licenses' keys were already resent ${limit} times today. Try again in ${seconds} seconds.`,
  );
  const customer = await deps.customers.findById(license.customerId);
  if (!customer) throw new NotFoundError('license');
  const context = await receiptContext(deps, license.developerId, license.productId, customer.email);
  const mail = receiptFor(deps, context, { kind: 'resend', revoked: license.storedStatus === 'revoked' }, 'resend')(license);
  await deps.mailOutbox.enqueue(mail);
  return { queued: true };
}
