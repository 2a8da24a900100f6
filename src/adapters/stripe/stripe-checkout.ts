import type Stripe from 'stripe';
import { offerText } from '../../domain/checkout-offer.ts';
import type { SavedCardDetails } from '../../domain/checkout-session.ts';
import type { NewProcessorCheckout, ProcessorCheckout } from '../../ports/payment-processor.ts';
import { subscriptionOfSession } from './stripe-subscription-checkout.ts';

/** Stripe refuses an `expires_at` less than 30 minutes ahead; ours is exactly 30, so a minute of margin. */
export const STRIPE_MIN_EXPIRY_SECONDS = 30 * 60 + 60;
/** Stripe's limit on each custom_text message. */
const CUSTOM_TEXT_MAX = 1200;

/** The Checkout Session that sells `product` on the seller's connected account. */
export function checkoutParams(input: NewProcessorCheckout, nowMs: number): Stripe.Checkout.SessionCreateParams {
  const { session, product, offer, trial } = input;
  // Stripe's page shows the line's description under the name, and the submit text beside Pay: the
  // same terms as the sandbox's page (interval, first charge and renewal, trial, seller).
  const product_data = { name: product.name, description: offerText(offer) };
  const price_data = { currency: session.currency, unit_amount: session.amount, product_data };
  const metadata = { checkout_session_id: session.id, product_id: product.id };
  // A recurring product starts a subscription (which keeps the card for its renewals by itself);
  // its metadata names our session so its first events can complete the checkout they belong to.
  const mode: Partial<Stripe.Checkout.SessionCreateParams> = product.interval
    ? {
        mode: 'subscription',
        line_items: [{ price_data: { ...price_data, recurring: { interval: product.interval } }, quantity: 1 }],
        // A trial bills nothing until it ends: Stripe's subscription is `trialing`, its first invoice $0.
        subscription_data: { metadata: { ...metadata, developer_id: session.developerId }, ...(trial ? { trial_period_days: trial.days } : {}) },
      }
    : {
        mode: 'payment',
        line_items: [{ price_data, quantity: 1 }],
        customer_creation: 'always',
        // The card is kept on the customer so later purchases can be charged without the buyer present.
        payment_intent_data: { setup_future_usage: 'off_session', metadata },
      };
  return {
    ...mode,
    ...(session.email ? { customer_email: session.email } : {}),
    phone_number_collection: { enabled: true },
    custom_text: { submit: { message: [...offer.terms, offer.seller].join(' ').slice(0, CUSTOM_TEXT_MAX) } },
    client_reference_id: session.id,
    metadata: { checkout_session_id: session.id, developer_id: session.developerId },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    expires_at: Math.max(Math.ceil(session.expiresAt / 1000), Math.ceil(nowMs / 1000) + STRIPE_MIN_EXPIRY_SECONDS),
  };
}

/** What a retrieved session (expanded: `payment_intent.payment_method`, `customer`) says about payment. */
export function toProcessorCheckout(s: Stripe.Checkout.Session): ProcessorCheckout {
  if (s.status === 'expired') return { state: 'expired' };
  const paid = s.payment_status === 'paid' || s.payment_status === 'no_payment_required';
  if (s.status !== 'complete' || !paid) return { state: 'open' };
  const customer = s.customer;
  const intent = typeof s.payment_intent === 'object' ? s.payment_intent : null;
  const customerEmail = customer && typeof customer === 'object' && !customer.deleted ? customer.email : null;
  const subscription = s.mode === 'subscription' ? subscriptionOfSession(s) : null;
  return {
    state: 'paid',
    completion: {
      email: s.customer_details?.email ?? s.customer_email ?? customerEmail ?? '',
      phone: s.customer_details?.phone ?? null,
      processorCustomerId: idOf(customer),
      paymentId: subscription ? subscription.paymentId : idOf(s.payment_intent),
      card: subscription ? subscription.card : cardOf(intent?.payment_method ?? null),
      ...(subscription ? { subscription: subscription.subscription } : {}),
      receiptUrl: subscription ? subscription.receiptUrl : receiptOf(intent),
    },
  };
}

/** The receipt Stripe keeps for the intent's charge (expanded: `payment_intent.latest_charge`). */
function receiptOf(intent: Stripe.PaymentIntent | null): string | null {
  const charge = intent?.latest_charge;
  return charge && typeof charge === 'object' ? httpsUrl(charge.receipt_url) : null;
}

/** A link Stripe gave for the buyer to open: kept only when it is an http(s) URL of sane length. */
export function httpsUrl(value: unknown): string | null {
  return typeof value === 'string' && value.length <= 2048 && /^https?:\/\/[^\s]+$/i.test(value) ? value : null;
}

export function cardOf(method: string | Stripe.PaymentMethod | null): SavedCardDetails | null {
  if (!method || typeof method === 'string' || !method.card) return null;
  const { brand, last4, exp_month, exp_year } = method.card;
  return { processorPaymentMethodId: method.id, brand, last4, expMonth: exp_month, expYear: exp_year };
}

export function idOf(value: string | { id: string } | null): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
