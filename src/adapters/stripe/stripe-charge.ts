import type Stripe from 'stripe';
import { DomainError } from '../../domain/errors.ts';
import type { SavedCardCharge } from '../../ports/payment-processor.ts';

export const AUTHENTICATION_REQUIRED_MESSAGE = 'This card needs its holder to confirm the payment: buy in the browser checkout instead.';
export const CARD_DECLINED_MESSAGE = 'The saved card was declined: use another card or buy in the browser checkout instead.';

/** An off-session PaymentIntent, created and confirmed in one call, on the saved card of the seller's customer. */
export function chargeParams(input: SavedCardCharge): Stripe.PaymentIntentCreateParams {
  return {
    amount: input.amount,
    currency: input.currency,
    ...(input.processorCustomerId ? { customer: input.processorCustomerId } : {}),
    payment_method: input.processorPaymentMethodId,
    off_session: true,
    confirm: true,
    // Confirming server-side with redirect-capable methods enabled would demand a return_url nobody can follow.
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    description: input.description,
    metadata: input.metadata,
  };
}

/** A confirmed intent: paid, or why not. Off-session confirmation normally fails as a card error instead. */
export function chargeOutcome(intent: Stripe.PaymentIntent): { paymentId: string } {
  switch (intent.status) {
    case 'succeeded':
      return { paymentId: intent.id };
    case 'requires_action':
      throw authenticationRequired();
    case 'requires_payment_method': {
      const failure = intent.last_payment_error;
      throw cardDeclined(failure?.decline_code ?? failure?.code ?? null);
    }
    default:
      throw new DomainError('processor_error', 'Stripe did not complete the payment; try again later.', {
        processor: 'stripe',
        status: intent.status,
      });
  }
}

/**
 * A StripeCardError as the domain says it; null for anything else. Stripe's own message and the
 * intent it carries (with its client_secret) stay out: only the decline code is passed on.
 */
export function cardError(error: unknown): DomainError | null {
  const e = error as { type?: unknown; code?: unknown; decline_code?: unknown } | null;
  if (!(error instanceof Error) || e?.type !== 'StripeCardError') return null;
  if (e.code === 'authentication_required' || e.decline_code === 'authentication_required') return authenticationRequired();
  return cardDeclined(e.decline_code || e.code);
}

function authenticationRequired(): DomainError {
  return new DomainError('authentication_required', AUTHENTICATION_REQUIRED_MESSAGE, { processor: 'stripe' });
}

function cardDeclined(code: unknown): DomainError {
  const declineCode = typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : 'generic_decline';
  return new DomainError('card_declined', CARD_DECLINED_MESSAGE, { processor: 'stripe', declineCode });
}
