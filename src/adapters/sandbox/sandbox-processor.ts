import { createHash } from 'node:crypto';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import type { NewProcessorCheckout, PaymentEvent, PaymentProcessor, ProcessorCheckout } from '../../ports/payment-processor.ts';

export const SANDBOX_CODE_PREFIX = 'sbx_code_';

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
    const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
    return { accountId: `acct_sandbox_${digest}` };
  }

  async createCheckout({ session }: NewProcessorCheckout): Promise<{ processorSessionId: string; url: string }> {
    return { processorSessionId: session.id, url: `${this.apiBaseUrl}/sandbox/checkout/${session.id}` };
  }

  /** Sandbox payments complete synchronously through the Pay form: there is nothing to look up. */
  async retrieveCheckout(): Promise<ProcessorCheckout> {
    return { state: 'open' };
  }

  /** No webhooks in sandbox mode: the endpoint is 404 as when no webhook secret is configured. */
  async parseWebhook(): Promise<PaymentEvent> {
    throw new DomainError('not_found', 'No webhook secret is configured.');
  }
}
