import { periodEndAfter } from '../../src/domain/subscription.ts';
import type { FormValue } from './fake-stripe.ts';

/**
 * Subscriptions of the fake Stripe, in the current API's shapes (period ends on the items, the
 * invoice's subscription under parent.subscription_details, its payment under payments): made when
 * a subscription-mode session is paid, renewed or failed by the test, each step answered with the
 * events Stripe would send, signed by the caller.
 */

export interface FakeSubscription {
  account: string | null;
  object: Record<string, any>;
  invoices: Record<string, any>[];
}

type Now = () => number;
const secs = (ms: number) => Math.floor(ms / 1000);

/**
 * How an invoice reads in an event: `current` (since 2025-03-31: parent.subscription_details,
 * payments), `current-unlisted` (the same without its payments, which events leave out unless
 * included), or `legacy` (top-level subscription and payment_intent).
 */
export type InvoiceShape = 'current' | 'current-unlisted' | 'legacy';

export function invoiceAs(invoice: Record<string, any>, shape: InvoiceShape): Record<string, any> {
  if (shape === 'current') return invoice;
  const { payments, parent, ...rest } = invoice;
  if (shape === 'current-unlisted') return { ...rest, parent };
  const details = parent.subscription_details;
  return { ...rest, subscription: details.subscription, subscription_details: { metadata: details.metadata }, payment_intent: payments.data[0]?.payment.payment_intent ?? null };
}

/** `held`: a payment the fake now holds (so it can be refunded), on this account. */
export function fakeSubscriptions(now: Now, uid: () => string, held: (paymentIntentId: string, amount: number, account: string | null, invoiceId: string) => void = () => {}) {
  const subscriptions = new Map<string, FakeSubscription>();

  /** `amount`: what it bills (a trial's first invoice: 0, paid with no payment). */
  function invoice(sub: FakeSubscription, billingReason: string, periodStart: number, periodEnd: number, paid: boolean, amount: number = sub.object.plan_amount) {
    const id = `in_test_${uid()}`;
    const charged = paid && amount > 0;
    const object = {
      id,
      object: 'invoice',
      billing_reason: billingReason,
      hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
      status: paid ? 'paid' : 'open',
      amount_paid: paid ? amount : 0,
      amount_due: sub.object.plan_amount,
      currency: sub.object.currency,
      customer: sub.object.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.object.id, metadata: sub.object.metadata } },
      lines: { object: 'list', data: [{ id: `il_${uid()}`, period: { start: secs(periodStart), end: secs(periodEnd) } }] },
      payments: { object: 'list', data: charged ? [{ payment: { type: 'payment_intent', payment_intent: `pi_test_${uid()}` } }] : [] },
    };
    sub.invoices.push(object);
    const payment = object.payments.data[0];
    if (payment) held(payment.payment.payment_intent, object.amount_paid, sub.account, id);
    return object;
  }

  function setPeriod(sub: FakeSubscription, start: number, end: number) {
    const item = sub.object.items.data[0];
    item.current_period_start = secs(start);
    item.current_period_end = secs(end);
  }

  return {
    subscriptions,
    /**
     * A paid subscription-mode session: the subscription and its first, paid, invoice. With
     * subscription_data.trial_period_days it is `trialing` until trial_end (its first period), and
     * its first invoice bills $0.
     */
    start(account: string | null, session: Record<string, any>, body: Record<string, FormValue>, customer: string, paymentMethod: Record<string, unknown> | null) {
      const price = ((body.line_items as any)?.[0]?.price_data ?? {}) as Record<string, any>;
      const interval = price.recurring?.interval === 'year' ? 'year' : 'month';
      const trialDays = Number((body.subscription_data as any)?.trial_period_days ?? 0);
      const start = now();
      const end = trialDays > 0 ? start + trialDays * 86_400_000 : periodEndAfter(start, interval);
      const id = `sub_test_${uid()}`;
      const sub: FakeSubscription = {
        account,
        invoices: [],
        object: {
          id,
          object: 'subscription',
          status: trialDays > 0 ? 'trialing' : 'active',
          trial_start: trialDays > 0 ? secs(start) : null,
          trial_end: trialDays > 0 ? secs(end) : null,
          customer,
          cancel_at_period_end: false,
          metadata: (body.subscription_data as any)?.metadata ?? {},
          default_payment_method: paymentMethod,
          currency: price.currency,
          plan_amount: Number(price.unit_amount),
          items: { object: 'list', data: [{ id: `si_${uid()}`, price: { recurring: { interval } } }] },
        },
      };
      setPeriod(sub, start, end);
      subscriptions.set(id, sub);
      const first = invoice(sub, 'subscription_create', start, end, true, trialDays > 0 ? 0 : sub.object.plan_amount);
      return { id, invoice: first };
    },
    get(id: string) {
      const sub = subscriptions.get(id);
      if (!sub) throw new Error(`fake Stripe has no subscription ${id}`);
      return sub;
    },
    /** The next period's invoice, paid or failed; the period moves on either way, as Stripe's does. */
    renew(id: string, paid: boolean) {
      const sub = this.get(id);
      const item = sub.object.items.data[0];
      const start = item.current_period_end * 1000;
      const end = periodEndAfter(start, item.price.recurring.interval);
      setPeriod(sub, start, end);
      sub.object.status = paid ? 'active' : 'past_due';
      return invoice(sub, 'subscription_cycle', start, end, paid);
    },
    /** The SDK's subscriptions.update: only cancel_at_period_end is read. */
    update(id: string, account: string | null, body: Record<string, FormValue>) {
      const sub = subscriptions.get(id);
      if (!sub || sub.account !== account) return null;
      if (body.cancel_at_period_end !== undefined) sub.object.cancel_at_period_end = body.cancel_at_period_end === 'true';
      return sub.object;
    },
  };
}
