import { createHash } from 'node:crypto';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import type { NewProcessorCheckout, PaymentEvent, PaymentProcessor, ProcessorCheckout, RefundRequest, SavedCardCharge } from '../../ports/payment-processor.ts';
import { savedCardBehaviour } from './sandbox-payment.ts';

export const SANDBOX_CODE_PREFIX = 'sbx_code_';

const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);

/**
 * The processor of sandbox mode: nothing leaves the machine. Its checkout page and Connect
 * authorize page are served by the service itself under /v1/sandbox; paying there completes the
 * session through the same use case a Stripe webhook does.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly kind = 'sandbox' as const;

  constructor(private readonly apiBaseUrl: string) {}

  authorizeUrl(state: string, redirectUri: string): string {
    const query = new URLSearchParams({ state, redirect_uri: redirectUri });
    return `${this.apiBaseUrl}/sandbox/connect/authorize?${query}`;
  }

  async exchangeCode(code: string): Promise<{ accountId: string }> {
    if (!code.startsWith(SANDBOX_CODE_PREFIX) || code.length < SANDBOX_CODE_PREFIX.length + 8) {
      throw new InvalidRequestError('The authorization code is not valid.', 'code', 'query');
    }
    return { accountId: `acct_sandbox_${sha16(code)}` };
  }

  async createCheckout({ session }: NewProcessorCheckout): Promise<{ processorSessionId: string; url: string }> {
    return { processorSessionId: session.id, url: `${this.apiBaseUrl}/sandbox/checkout/${session.id}` };
  }

  /** Sandbox payments complete synchronously through the Pay form: there is nothing to look up. */
  async retrieveCheckout(): Promise<ProcessorCheckout> {
    return { state: 'open' };
  }

  /**
   * Pays unless the card is one of Stripe's off-session test cards saved at the sandbox checkout.
   * The payment id is derived from the idempotency key: a retried attempt names the same payment.
   */
  async chargeSavedCard({ processorPaymentMethodId, idempotencyKey }: SavedCardCharge): Promise<{ paymentId: string }> {
    switch (savedCardBehaviour(processorPaymentMethodId)) {
      case 'declines':
        throw new DomainError('card_declined', 'The saved card was declined: use another card or buy in the browser checkout instead.', {
          processor: 'sandbox',
          declineCode: 'generic_decline',
        });
      case 'needs_authentication':
        throw new DomainError('authentication_required', 'This card needs its holder to confirm the payment: buy in the browser checkout instead.', {
          processor: 'sandbox',
        });
      case 'pays':
        return { paymentId: `pi_sandbox_${sha16(idempotencyKey)}` };
    }
  }

  /** Sandbox subscriptions live in the store only: cancelling them is the store's update. */
  async cancelSubscriptionAtPeriodEnd(): Promise<void> {}

  /** Likewise: resuming is the store's update. */
  async resumeSubscription(): Promise<void> {}

  /** The sandbox's card form is the service's own page (src/app/customers/card-change.ts). */
  async cardUpdateUrl(): Promise<string | null> {
    return null;
  }

  /** Sandbox money goes back at once; the refund id derives from the key, so a retry names the same refund. */
  async refund({ idempotencyKey }: RefundRequest): Promise<{ refundId: string }> {
    return { refundId: `re_sandbox_${sha16(idempotencyKey)}` };
  }

  /** Sandbox invoices always name their payment. */
  async invoicePaymentId(): Promise<string | null> {
    return null;
  }

  /** Sandbox payments are never reported by events: nothing to look up. */
  async invoiceOfPayment(): Promise<string | null> {
    return null;
  }

  /** No webhooks in sandbox mode: the endpoint is 404 as when no webhook secret is configured. */
  async parseWebhook(): Promise<PaymentEvent> {
    throw new DomainError('not_found', 'No webhook secret is configured.');
  }
}
