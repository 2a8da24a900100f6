import type { Deps } from '../../ports/deps.ts';

/**
 * The buyer cancelled on the payment page. A pending session ends now, as `expired` (the state a
 * session that will never be paid is in), so an application polling its status stops at once
 * instead of waiting out the 30 minutes. A paid session is left as it is.
 */
export async function cancelCheckout(deps: Pick<Deps, 'checkouts'>, sessionId: string): Promise<void> {
  await deps.checkouts.update(sessionId, { storedStatus: 'expired' }, { storedStatus: 'pending' });
}
