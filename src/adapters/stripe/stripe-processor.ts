import Stripe from 'stripe';
import { ConflictError, DomainError, InvalidRequestError } from '../../domain/errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { NewProcessorCheckout, PaymentEvent, PaymentProcessor, ProcessorCheckout, RefundRequest, SavedCardCharge } from '../../ports/payment-processor.ts';
import { systemClock } from '../system/system-clock.ts';
import { cardError, chargeOutcome, chargeParams } from './stripe-charge.ts';
import { checkoutParams, toProcessorCheckout } from './stripe-checkout.ts';
import { toPaymentEvent } from './stripe-events.ts';
import { SUBSCRIPTION_EXPANSIONS } from './stripe-subscription-checkout.ts';

export interface StripeProcessorOptions {
  /** The platform's secret key (`sk_live_…` / `sk_test_…`): also the OAuth client secret. */
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`); null = webhooks are 404. */
  webhookSecret: string | null;
  /** The platform's Connect client id (`ca_…`). */
  connectClientId: string;
  /** `STRIPE_API_BASE`, e.g. `http://127.0.0.1:12111`: every call, OAuth included, goes there instead of Stripe. */
  apiBase?: string | null;
  clock?: Clock;
}

const CONNECT_AUTHORIZE_URL = 'https://connect.stripe.com/oauth/authorize';
/** Stripe's own default: signatures older than five minutes are replays. */
const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A checkout or a status poll waits on this call; Stripe's 80 s default would outlive the client's patience. */
const REQUEST_TIMEOUT_MS = 20_000;

/** Sellers' Standard accounts connected through OAuth; hosted Checkout Sessions and off-session charges on those accounts. */
export class StripeProcessor implements PaymentProcessor {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly clock: Clock;
  private readonly authorizeBase: string;
  private readonly connectClientId: string;
  private readonly webhookSecret: string | null;

  /** Throws when apiBase is not a bare http(s) origin. The secret key is kept only inside the SDK client. */
  constructor(options: StripeProcessorOptions) {
    const base = options.apiBase ? parseApiBase(options.apiBase) : null;
    this.stripe = new Stripe(options.secretKey, { timeout: REQUEST_TIMEOUT_MS, ...(base?.sdk ?? {}) });
    this.clock = options.clock ?? systemClock;
    this.authorizeBase = base ? `${base.origin}/oauth/authorize` : CONNECT_AUTHORIZE_URL;
    this.connectClientId = options.connectClientId;
    this.webhookSecret = options.webhookSecret;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: this.connectClientId,
      scope: 'read_write',
      state,
      redirect_uri: redirectUri,
    });
    return `${this.authorizeBase}?${query}`;
  }

  async exchangeCode(code: string): Promise<{ accountId: string }> {
    try {
      const token = await this.stripe.oauth.token({ grant_type: 'authorization_code', code });
      if (!token.stripe_user_id) throw new DomainError('processor_error', 'Stripe did not return the connected account.');
      return { accountId: token.stripe_user_id };
    } catch (error) {
      if (isStripeType(error, 'StripeInvalidGrantError', 'StripeOAuthInvalidRequestError')) {
        throw new InvalidRequestError('The authorization code is invalid, expired or already used.', 'code', 'query');
      }
      throw processorError(error, 'connect the Stripe account');
    }
  }

  async createCheckout(input: NewProcessorCheckout): Promise<{ processorSessionId: string; url: string }> {
    try {
      const created = await this.stripe.checkout.sessions.create(checkoutParams(input, this.clock.now()), {
        stripeAccount: input.accountId,
        idempotencyKey: `checkout-create-${input.session.id}`,
      });
      if (!created.url) throw new DomainError('processor_error', 'Stripe did not return a checkout URL.');
      return { processorSessionId: created.id, url: created.url };
    } catch (error) {
      throw processorError(error, 'create the checkout');
    }
  }

  async retrieveCheckout(processorSessionId: string, accountId: string): Promise<ProcessorCheckout> {
    try {
      const retrieve = (expand: string[]) => this.stripe.checkout.sessions.retrieve(processorSessionId, { expand }, { stripeAccount: accountId });
      const session = await retrieve(['payment_intent.payment_method', 'payment_intent.latest_charge', 'customer']);
      // A paid subscription session is read again with its subscription and first invoice expanded.
      if (session.mode === 'subscription' && session.status === 'complete') return toProcessorCheckout(await retrieve(['customer', ...SUBSCRIPTION_EXPANSIONS]));
      return toProcessorCheckout(session);
    } catch (error) {
      throw processorError(error, 'look up the checkout');
    }
  }

  /** The SDK retries under the caller's idempotency key, so a retried attempt is the same PaymentIntent. */
  async chargeSavedCard(input: SavedCardCharge): Promise<{ paymentId: string }> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(chargeParams(input), {
        stripeAccount: input.accountId,
        idempotencyKey: input.idempotencyKey,
      });
    } catch (error) {
      throw cardError(error) ?? processorError(error, 'charge the saved card');
    }
    return chargeOutcome(intent);
  }

  /** Idempotent at Stripe: setting the flag again changes nothing. */
  async cancelSubscriptionAtPeriodEnd(processorSubscriptionId: string, accountId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.update(processorSubscriptionId, { cancel_at_period_end: true }, { stripeAccount: accountId });
    } catch (error) {
      throw processorError(error, 'cancel the subscription');
    }
  }

  /** Idempotent at Stripe too: clearing the flag again changes nothing. */
  async resumeSubscription(processorSubscriptionId: string, accountId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.update(processorSubscriptionId, { cancel_at_period_end: false }, { stripeAccount: accountId });
    } catch (error) {
      throw processorError(error, 'resume the subscription');
    }
  }

  /** The subscription names its customer; the portal session is made for that customer on the seller's account. */
  async cardUpdateUrl(processorSubscriptionId: string, accountId: string, returnUrl: string): Promise<string | null> {
    try {
      const subscription = await this.stripe.subscriptions.retrieve(processorSubscriptionId, {}, { stripeAccount: accountId });
      const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
      const session = await this.stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }, { stripeAccount: accountId });
      return session.url;
    } catch (error) {
      throw processorError(error, 'open the billing portal');
    }
  }

  /** Refunds the PaymentIntent; the SDK retries under the caller's idempotency key, so a retry is the same refund. */
  async refund(input: RefundRequest): Promise<{ refundId: string }> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: input.paymentId, amount: input.amount, metadata: input.metadata },
        { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
      );
      return { refundId: refund.id };
    } catch (error) {
      throw refundConflict(error) ?? processorError(error, 'refund the payment');
    }
  }

  async invoicePaymentId(invoiceId: string, accountId: string): Promise<string | null> {
    try {
      const payments = await this.stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 }, { stripeAccount: accountId });
      const paid = payments.data.find((p) => p.payment.type === 'payment_intent' && p.payment.payment_intent);
      const intent = paid?.payment.payment_intent;
      return (typeof intent === 'string' ? intent : intent?.id) ?? null;
    } catch (error) {
      throw processorError(error, 'look up the invoice’s payment');
    }
  }

  async invoiceOfPayment(paymentId: string, accountId: string): Promise<string | null> {
    try {
      const payments = await this.stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentId }, limit: 1 }, { stripeAccount: accountId });
      const invoice = payments.data[0]?.invoice;
      return (typeof invoice === 'string' ? invoice : invoice?.id) ?? null;
    } catch (error) {
      throw processorError(error, 'look up the payment’s invoice');
    }
  }

  async parseWebhook(rawBody: string, signatureHeader: string | null): Promise<PaymentEvent> {
    const secret = this.webhookSecret;
    if (!secret) throw new DomainError('not_found', 'No webhook secret is configured.');
    let event: Stripe.Event;
    try {
      // The async variant: the synchronous one needs a crypto provider Bun's SubtleCrypto cannot be.
      event = await this.stripe.webhooks.constructEventAsync(
        rawBody,
        signatureHeader ?? '',
        secret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        this.clock.now(),
      );
    } catch {
      throw new DomainError('invalid_signature', 'The Stripe-Signature header does not match the body.');
    }
    return toPaymentEvent(event);
  }
}

/** `http://127.0.0.1:12111` → the SDK's host/port/protocol, which it uses for api and connect calls alike. */
function parseApiBase(apiBase: string): { origin: string; sdk: { host: string; port: string; protocol: 'http' | 'https' } } {
  const url = new URL(apiBase);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/+$/, '') !== '' || url.search) {
    throw new Error('STRIPE_API_BASE must be an origin such as http://127.0.0.1:12111 (no path, no query).');
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port || (protocol === 'http' ? '80' : '443');
  return { origin: url.origin, sdk: { host: url.hostname, port, protocol } };
}

function isStripeType(error: unknown, ...types: string[]): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return error instanceof Error && typeof type === 'string' && types.includes(type);
}

/**
 * What Stripe refuses about the refund itself (nothing left to refund, more than is left, a key
 * reused with another amount) is a conflict with the payment's state, not an outage.
 */
function refundConflict(error: unknown): ConflictError | null {
  const code = (error as { code?: unknown } | null)?.code;
  // A key reused with another amount, or still in use by a concurrent request (the SDK retries that 409 first).
  if (isStripeType(error, 'StripeIdempotencyError', 'idempotency_error') || code === 'idempotency_key_in_use') {
    return new ConflictError('conflict', 'Another refund of this order was being made at the same time; list the order and try again.');
  }
  if (code === 'charge_already_refunded' || code === 'amount_too_large' || code === 'charge_disputed') {
    return new ConflictError('conflict', `Stripe refused the refund (${code}): less of the payment is left to refund than asked.`);
  }
  if (code === 'resource_missing') {
    return new ConflictError('conflict', 'Stripe does not know this payment on your connected account (connected another account since?); refund it in the dashboard of the account it was paid on.');
  }
  return null;
}

/** Stripe's own messages can quote request details; ours name only what failed and Stripe's error class. */
function processorError(error: unknown, action: string): DomainError {
  if (error instanceof DomainError) return error;
  const e = error as { type?: unknown; code?: unknown; statusCode?: unknown; requestId?: unknown } | null;
  const details: Record<string, unknown> = { processor: 'stripe' };
  if (typeof e?.type === 'string') details.type = e.type;
  if (typeof e?.code === 'string') details.code = e.code;
  if (typeof e?.statusCode === 'number') details.status = e.statusCode;
  if (typeof e?.requestId === 'string') details.requestId = e.requestId;
  return new DomainError('processor_error', `Stripe could not ${action}; try again later.`, details);
}
