import { checkoutStatus, type CheckoutSession } from '../../domain/checkout-session.ts';
import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { licenseStatus, type LicenseStatus } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';
import { completeCheckout, type CompleteDeps } from './complete-checkout.ts';

/** How often a pending poll may ask the processor (clients poll every 2 s). */
export const RECONCILE_EVERY_MS = 10_000;

/**
 * How long after completion the status still hands out the license key. The session id is a bearer
 * of that key (it sits in browser histories and redirect URLs); the buyer's application has it
 * within seconds, and the buyer can always get their keys again by signing in.
 */
export const KEY_AVAILABLE_FOR_MS = 24 * 3_600_000;

export type CheckoutStatusView =
  | { status: 'pending' }
  | { status: 'expired' }
  | {
      status: 'complete';
      licenseKey: string;
      license: { id: string; productId: string; productName: string; status: LicenseStatus; features: string[]; issuedAt: number; expiresAt: number | null; trial: boolean };
    };

type StatusDeps = CompleteDeps & Pick<Deps, 'processor' | 'connections'>;

/**
 * Decided by our clock: pending until 30 minutes, then expired; complete with the license key for
 * 24 hours after payment, then 404. A pending Stripe session is also checked with Stripe now and
 * then, so a lost webhook never strands a buyer who paid.
 */
export async function getCheckoutStatus(deps: StatusDeps, sessionId: string): Promise<CheckoutStatusView> {
  let session = await deps.checkouts.findById(sessionId);
  if (!session) throw new NotFoundError('checkout session');
  const now = deps.clock.now();
  if (!session.licenseId && shouldReconcile(deps, session, now)) session = await reconcile(deps, session, now);
  if (session.licenseId) {
    if (now - (session.completedAt ?? session.createdAt) >= KEY_AVAILABLE_FOR_MS) throw new CheckoutGoneError();
    return completeView(deps, session.licenseId, now);
  }
  const status = checkoutStatus(session, now);
  if (status !== 'expired') return { status: 'pending' };
  if (session.storedStatus === 'pending') await deps.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });
  return { status: 'expired' };
}

/**
 * Throttled to once per 10 s, except the first poll past our expiry, which always asks once more
 * (a payment in the last seconds must not read as expired). Once expiry is recorded, only a
 * webhook can still complete the session.
 */
function shouldReconcile(deps: StatusDeps, session: CheckoutSession, now: number): boolean {
  if (deps.processor.kind !== 'stripe' || session.processor !== 'stripe' || session.processorSessionId === null) return false;
  if (session.storedStatus !== 'pending') return false;
  const last = session.reconciledAt;
  return last === null || now - last >= RECONCILE_EVERY_MS || (now >= session.expiresAt && last < session.expiresAt);
}

async function reconcile(deps: StatusDeps, session: CheckoutSession, now: number): Promise<CheckoutSession> {
  const account = await deps.connections.accountOf(session.developerId);
  if (!account) return session;
  await deps.checkouts.update(session.id, { reconciledAt: now });
  try {
    const found = await deps.processor.retrieveCheckout(session.processorSessionId!, account.accountId);
    if (found.state === 'paid') await completeCheckout(deps, session.id, found.completion);
    if (found.state === 'expired') await deps.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });
  } catch (error) {
    // The processor being unreachable leaves the answer to our own records: the webhook may still come.
    if (!(error instanceof DomainError) || error.code !== 'processor_error') throw error;
  }
  return (await deps.checkouts.findById(session.id)) ?? session;
}

class CheckoutGoneError extends DomainError {
  constructor() {
    super('not_found', 'This checkout completed more than 24 hours ago: its license key is no longer available here. Sign in to get your licenses.');
  }
}

async function completeView(deps: StatusDeps, licenseId: string, now: number): Promise<CheckoutStatusView> {
  const license = await deps.licenses.findById(licenseId);
  if (!license) throw new NotFoundError('license');
  // The buyer's application can name what was bought (as login's licenses do) without a seller key.
  const product = await deps.products.findById(license.productId);
  return {
    status: 'complete',
    licenseKey: license.licenseKey,
    license: {
      id: license.id,
      productId: license.productId,
      productName: product?.name ?? '',
      status: licenseStatus(license, now),
      features: license.features,
      issuedAt: license.issuedAt,
      expiresAt: license.expiresAt,
      trial: license.trial,
    },
  };
}
