import type { Deps } from '../../ports/deps.ts';
import type { PaymentEvent } from '../../ports/payment-processor.ts';
import { completeCheckout, type CompleteDeps } from '../checkout/complete-checkout.ts';
import { reversePayment, type SettleRefundDeps } from '../orders/settle-refund.ts';
import { applySubscriptionEvent, type SubscriptionEvent } from '../subscriptions/subscription-events.ts';

type WebhookDeps = CompleteDeps & SettleRefundDeps & Pick<Deps, 'processor' | 'connections' | 'incomingWebhookEvents'>;

/**
 * A processor's event, verified against the raw body, acted on once per event id whatever the
 * order or number of deliveries. A failure releases the id so the processor's retry can run it.
 */
export async function handlePaymentEvent(
  deps: WebhookDeps,
  rawBody: string,
  signature: string | null,
): Promise<{ received: true; duplicate?: true }> {
  const event = await deps.processor.parseWebhook(rawBody, signature);
  if (!(await deps.incomingWebhookEvents.claim(event.eventId, event.type, deps.clock.now()))) return { received: true, duplicate: true };
  try {
    await apply(deps, event);
  } catch (error) {
    await deps.incomingWebhookEvents.release(event.eventId);
    throw error;
  }
  return { received: true };
}

async function apply(deps: WebhookDeps, event: PaymentEvent): Promise<void> {
  switch (event.kind) {
    case 'checkout_completed': {
      const session = await sessionOf(deps, event.sessionId, event.processorSessionId);
      if (!session || session.licenseId) return;
      const accountId = (await deps.connections.accountOf(session.developerId))?.accountId;
      // Only the session's seller's connected account speaks for it (as for subscription events).
      if (!accountId || (event.accountId !== null && event.accountId !== accountId)) return;
      // The event says "paid"; the session's details (payer, card) come from the processor itself.
      const found = await deps.processor.retrieveCheckout(event.processorSessionId, accountId);
      if (found.state === 'paid') await completeCheckout(deps, session.id, found.completion);
      return;
    }
    case 'checkout_expired': {
      const session = await sessionOf(deps, event.sessionId, event.processorSessionId);
      if (session) await deps.checkouts.update(session.id, { storedStatus: 'expired' }, { storedStatus: 'pending' });
      return;
    }
    case 'payment_reversed':
      // Bought in the browser, in the terminal or renewed: what the money paid for goes back with it.
      await reversePayment(deps, event);
      return;
    case 'account_deauthorized':
      await deps.connections.removeAccount(event.accountId);
      return;
    case 'invoice_paid':
    case 'invoice_failed':
    case 'subscription_changed':
      await applySubscriptionEvent(deps, event as SubscriptionEvent);
      return;
    case 'ignored':
      return;
  }
}

/**
 * Our session for a processor session: by our id when the (signed) event carries it, and if it names
 * a processor session that must be this one; a session whose creation call has not returned yet
 * has none recorded.
 */
async function sessionOf(deps: WebhookDeps, sessionId: string | null, processorSessionId: string) {
  const byOurId = sessionId ? await deps.checkouts.findById(sessionId) : null;
  if (byOurId && (byOurId.processorSessionId === null || byOurId.processorSessionId === processorSessionId)) return byOurId;
  return deps.checkouts.findByProcessorSessionId(processorSessionId);
}
