import Stripe from 'stripe';
import { fakeSubscriptions, invoiceAs, type InvoiceShape } from './fake-stripe-subscriptions.ts';

/**
 * A local stand-in for api.stripe.com and connect.stripe.com that the official SDK talks to:
 * Connect OAuth, Checkout Session create (honouring Idempotency-Key) and retrieve (honouring
 * Stripe-Account and `expand`), and off-session PaymentIntents (Idempotency-Key replayed per account,
 * errors included; test hooks make a payment method decline or need authentication), and
 * subscriptions: a paid subscription-mode session starts one (fake-stripe-subscriptions.ts), which
 * the test renews, fails, or ends, and whose events it signs and delivers; refunds of any payment it
 * holds (Idempotency-Key replayed per account, amounts bounded by what is left), answered with the
 * charge.refunded Stripe sends, in either API shape.
 * Every request is recorded, body form-decoded into nested objects.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  /** The Host header: where the SDK believed it was sending the request. */
  host: string;
  headers: Record<string, string>;
  query: Record<string, FormValue>;
  body: Record<string, FormValue>;
}

export interface PaidDetails {
  email: string;
  phone?: string | null;
  customerId: string;
  paymentIntentId: string;
  card?: { id: string; brand: string; last4: string; expMonth: number; expYear: number } | null;
}

export interface FakeIntent {
  id: string;
  account: string | null;
  idempotencyKey: string | null;
  status: string;
  params: Record<string, FormValue>;
}

interface FakeSession {
  account: string | null;
  object: Record<string, unknown>;
  paid: PaidDetails | null;
  body: Record<string, FormValue>;
  /** A paid subscription-mode session: its subscription and first invoice. */
  subscription?: { id: string; invoice: Record<string, unknown> };
}

export const GOOD_CODE = 'good_code';
export const CONNECTED_ACCOUNT = 'acct_1FakeConnected';

/** `a[0][b]=x&a[0][c]=y` → `{a: [{b: 'x', c: 'y'}]}`: how Stripe reads its form bodies. */
export function decodeForm(params: URLSearchParams): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of params) {
    const [head, ...rest] = key.split('[').map((part) => part.replace(/]$/, ''));
    let node: Record<string, FormValue> | FormValue[] = root;
    const path = [head!, ...rest];
    path.forEach((part, i) => {
      const container = node as Record<string, FormValue>;
      if (i === path.length - 1) {
        container[part] = value;
        return;
      }
      container[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = container[part] as Record<string, FormValue>;
    });
  }
  return root;
}

const json = (status: number, body: unknown) => Response.json(body, { status });
const stripeError = (status: number, type: string, message: string, code?: string) =>
  json(status, { error: { type, message, ...(code ? { code } : {}) } });

/** `now`: the fake's clock (subscription periods, event times); the test's FixedClock, or the real one. */
export async function startFakeStripe(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const idempotent = new Map<string, Record<string, unknown>>();
  let failures: { status: number; remaining: number } = { status: 500, remaining: 0 };
  let counter = 0;
  const intents: FakeIntent[] = [];
  /** payment method → how its charges fail: a decline code, `authentication_required` or `requires_action`. */
  const cards = new Map<string, string>();
  const replays = new Map<string, { params: string; response: { status: number; body: unknown } }>();
  const uid = () => `${++counter}${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  /** Every payment the fake holds: what it paid and what went back, the invoice it paid (if any). */
  const charges = new Map<string, { id: string; amount: number; refunded: number; account: string | null; invoice: string | null }>();
  const hold = (paymentIntentId: string, amount: number, account: string | null, invoice: string | null = null) =>
    charges.set(paymentIntentId, { id: `ch_test_${uid()}`, amount, refunded: 0, account, invoice });
  /** Every refund made, in order (replays of an idempotency key make none). */
  const refunds: { id: string; paymentIntentId: string; amount: number; account: string | null; idempotencyKey: string | null }[] = [];
  /** Every billing-portal session made, in order, with the account it was made on. */
  const portalSessions: { id: string; customer: FormValue | undefined; return_url: FormValue | null; url: string; account: string | null }[] = [];
  const subs = fakeSubscriptions(now, uid, (pi, amount, account, invoice) => hold(pi, amount, account, invoice));
  /** An event of the fake's own making, stamped with its clock. */
  const event = (type: string, object: Record<string, unknown>, account: string | null) =>
    stripeEvent(type, structuredClone(object), account ?? undefined, Math.floor(now() / 1000));

  function view(session: FakeSession, expand: string[]): Record<string, unknown> {
    const paid = session.paid;
    if (!paid) return session.object;
    const card = paid.card ?? null;
    const method = card
      ? { id: card.id, object: 'payment_method', type: 'card', card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear } }
      : null;
    const charge = charges.get(paid.paymentIntentId);
    const latestCharge = charge ? { id: charge.id, object: 'charge', receipt_url: `https://pay.stripe.test/receipts/${charge.id}` } : null;
    const intent = {
      id: paid.paymentIntentId, object: 'payment_intent', status: 'succeeded', payment_method: expand.includes('payment_intent.payment_method') ? method : (method?.id ?? null),
      latest_charge: expand.includes('payment_intent.latest_charge') ? latestCharge : (latestCharge?.id ?? null),
    };
    const expandsIntent = expand.some((e) => e === 'payment_intent' || e.startsWith('payment_intent.'));
    if (session.subscription) {
      const sub = subs.get(session.subscription.id).object;
      const expandsSub = expand.some((e) => e === 'subscription' || e.startsWith('subscription.'));
      const pm = sub.default_payment_method as { id: string } | null;
      const subView = { ...sub, default_payment_method: expand.includes('subscription.default_payment_method') ? pm : (pm?.id ?? null) };
      return {
        ...session.object,
        status: 'complete',
        // A trial's checkout charges nothing: Stripe calls it paid this way.
        payment_status: session.subscription.invoice.amount_paid === 0 ? 'no_payment_required' : 'paid',
        customer_details: { email: paid.email, phone: paid.phone ?? null },
        customer: expand.includes('customer') ? { id: paid.customerId, object: 'customer', email: paid.email } : paid.customerId,
        payment_intent: null,
        subscription: expandsSub ? subView : sub.id,
        invoice: expand.some((e) => e.startsWith('invoice')) ? session.subscription.invoice : session.subscription.invoice.id,
      };
    }
    return {
      ...session.object,
      status: 'complete',
      payment_status: 'paid',
      customer_details: { email: paid.email, phone: paid.phone ?? null },
      customer: expand.includes('customer') ? { id: paid.customerId, object: 'customer', email: paid.email } : paid.customerId,
      payment_intent: expandsIntent ? intent : paid.paymentIntentId,
    };
  }

  function createSession(body: Record<string, FormValue>, account: string | null): Record<string, unknown> {
    const id = `cs_test_${uid()}`;
    const object: Record<string, unknown> = {
      id,
      object: 'checkout.session',
      url: `https://checkout.stripe.test/c/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      mode: body.mode,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      customer_email: body.customer_email ?? null,
      customer_details: null,
      customer: null,
      payment_intent: null,
      expires_at: Number(body.expires_at),
      success_url: body.success_url,
      cancel_url: body.cancel_url,
    };
    sessions.set(id, { account, object, paid: null, body });
    return object;
  }

  function route(req: RecordedRequest): Response {
    if (failures.remaining > 0) {
      failures.remaining--;
      return stripeError(failures.status, 'api_error', 'The fake was told to fail.');
    }
    if (!req.headers.authorization?.startsWith('Bearer sk_')) return stripeError(401, 'invalid_request_error', 'No API key provided.');
    const account = req.headers['stripe-account'] ?? null;
    if (req.method === 'POST' && req.path === '/oauth/token') {
      if (req.body.grant_type === 'authorization_code' && req.body.code === GOOD_CODE) {
        return json(200, { access_token: 'sk_test_connected', token_type: 'bearer', scope: 'read_write', livemode: false, stripe_user_id: CONNECTED_ACCOUNT });
      }
      return json(400, { error: 'invalid_grant', error_description: `Authorization code does not exist: ${String(req.body.code)}` });
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const key = req.headers['idempotency-key'];
      const created = (key && idempotent.get(key)) || createSession(req.body, account);
      if (key) idempotent.set(key, created);
      return json(200, created);
    }
    if (req.method === 'POST' && req.path === '/v1/payment_intents') return paymentIntent(req, account);
    if (req.method === 'POST' && req.path === '/v1/refunds') return replayed(req, account, () => refund(req.body, account, req.headers['idempotency-key'] ?? null));
    if (req.method === 'GET' && req.path === '/v1/invoice_payments') return invoicePayments(req.query, account);
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && subMatch) {
      const sub = subs.subscriptions.get(subMatch[1]!);
      return sub && sub.account === account ? json(200, sub.object) : stripeError(404, 'invalid_request_error', `No such subscription: '${subMatch[1]}'`, 'resource_missing');
    }
    if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') return portalSession(req.body, account);
    if (req.method === 'POST' && subMatch) {
      const updated = subs.update(subMatch[1]!, account, req.body);
      return updated ? json(200, updated) : stripeError(404, 'invalid_request_error', `No such subscription: '${subMatch[1]}'`, 'resource_missing');
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && match) {
      const session = sessions.get(match[1]!);
      // A session on a connected account is invisible without that account's Stripe-Account header.
      if (!session || session.account !== account) {
        return stripeError(404, 'invalid_request_error', `No such checkout.session: '${match[1]}'`, 'resource_missing');
      }
      const expand = Object.values((req.query.expand as FormValue[] | undefined) ?? []).map(String);
      return json(200, view(session, expand));
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path}).`);
  }

  /**
   * Stripe scopes keys to the account and replays the first answer, card errors included (a request
   * refused as invalid is not kept); the same key with other parameters is an idempotency_error.
   */
  function replayed(req: RecordedRequest, account: string | null, answer: () => { status: number; body: unknown }): Response {
    const key = req.headers['idempotency-key'] ?? null;
    const params = JSON.stringify({ path: req.path, body: req.body });
    const replay = key ? replays.get(`${account} ${key}`) : undefined;
    if (replay && replay.params !== params) {
      return json(400, { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}'.` } });
    }
    const response = replay?.response ?? answer();
    if (key && !replay && response.status !== 400) replays.set(`${account} ${key}`, { params, response });
    return json(response.status, response.body);
  }

  function paymentIntent(req: RecordedRequest, account: string | null): Response {
    return replayed(req, account, () => confirmIntent(req.body, account, req.headers['idempotency-key'] ?? null));
  }

  /** A refund of a payment on this account: all that is left, or `amount`, never more than is left. */
  function refund(body: Record<string, FormValue>, account: string | null, idempotencyKey: string | null) {
    const charge = charges.get(String(body.payment_intent));
    if (!charge || charge.account !== account) {
      return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${String(body.payment_intent)}'` } } };
    }
    const left = charge.amount - charge.refunded;
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (left === 0) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } } };
    if (amount > left) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'Refund amount is greater than unrefunded amount on charge.' } } };
    charge.refunded += amount;
    const id = `re_test_${uid()}`;
    refunds.push({ id, paymentIntentId: String(body.payment_intent), amount, account, idempotencyKey });
    return { status: 200, body: { id, object: 'refund', amount, charge: charge.id, payment_intent: body.payment_intent, status: 'succeeded', metadata: body.metadata ?? {} } };
  }

  /** A billing-portal session for a customer of this account's subscriptions (Stripe answers its one-time URL). */
  function portalSession(body: Record<string, FormValue>, account: string | null): Response {
    const known = [...subs.subscriptions.values()].some((sub) => sub.account === account && sub.object.customer === body.customer);
    if (!known) return stripeError(400, 'invalid_request_error', `No such customer: '${String(body.customer)}'`, 'resource_missing');
    const id = `bps_test_${uid()}`;
    const session = { id, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url ?? null, url: `https://billing.stripe.test/p/session/${id}` };
    portalSessions.push({ ...session, account });
    return json(200, session);
  }

  /** GET /v1/invoice_payments?invoice=… or ?payment[payment_intent]=…: how the current API ties invoices and payments. */
  function invoicePayments(query: Record<string, FormValue>, account: string | null): Response {
    const byPayment = (query.payment as Record<string, FormValue> | undefined)?.payment_intent;
    const data = [...charges.entries()]
      .filter(([pi, c]) => c.invoice !== null && c.account === account && (byPayment === undefined ? c.invoice === query.invoice : pi === byPayment))
      .map(([pi, c]) => ({ id: `inpay_${uid()}`, object: 'invoice_payment', invoice: c.invoice, status: 'paid', payment: { type: 'payment_intent', payment_intent: pi } }));
    return json(200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
  }

  function confirmIntent(body: Record<string, FormValue>, account: string | null, idempotencyKey: string | null) {
    if (!body.amount || !body.currency || !body.payment_method) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Missing required param.' } } };
    }
    const id = `pi_test_${uid()}`;
    const failing = cards.get(String(body.payment_method));
    const status = !failing ? 'succeeded' : failing === 'requires_action' ? 'requires_action' : 'requires_payment_method';
    const intent = {
      id, object: 'payment_intent', status, amount: Number(body.amount), currency: body.currency, customer: body.customer ?? null,
      payment_method: body.payment_method, metadata: body.metadata ?? {}, client_secret: `${id}_secret_${uid()}`, livemode: false,
    };
    intents.push({ id, account, idempotencyKey, status, params: body });
    if (!failing) hold(id, Number(body.amount), account);
    if (!failing || failing === 'requires_action') return { status: 200, body: intent };
    const code = failing === 'authentication_required' || failing === 'expired_card' ? failing : 'card_declined';
    const error = { type: 'card_error', code, decline_code: failing, message: `Your card was declined (${failing}).`, charge: `ch_test_${uid()}` };
    return { status: 402, body: { error: { ...error, payment_intent: { ...intent, last_payment_error: error } } } };
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const headers = Object.fromEntries(request.headers);
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        host: request.headers.get('host') ?? '',
        headers,
        query: decodeForm(url.searchParams),
        body: decodeForm(new URLSearchParams(await request.text())),
      };
      requests.push(recorded);
      return route(recorded);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    /** The session reads as complete and paid by this buyer, from now on. */
    markPaid(id: string, details: PaidDetails) {
      const session = sessions.get(id);
      if (!session) throw new Error(`fake Stripe has no session ${id}`);
      session.paid = details;
      if (session.object.mode !== 'subscription') hold(details.paymentIntentId, Number((session.body.line_items as any)?.[0]?.price_data?.unit_amount ?? 0), session.account);
      if (session.object.mode === 'subscription' && !session.subscription) {
        const card = details.card ?? null;
        const method = card ? { id: card.id, object: 'payment_method', type: 'card', card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear } } : null;
        session.subscription = subs.start(session.account, session.object, session.body, details.customerId, method);
      }
    },
    /** The subscription a paid subscription-mode session started. */
    subscriptionOf(sessionId: string): string {
      const id = sessions.get(sessionId)?.subscription?.id;
      if (!id) throw new Error(`fake Stripe session ${sessionId} has no subscription`);
      return id;
    },
    /** The subscription as Stripe would send it in an event or answer it. */
    subscription: (id: string) => subs.get(id).object,
    /** checkout.session.completed of a paid session, as Stripe sends it. */
    completedEvent(sessionId: string): string {
      const session = sessions.get(sessionId)!;
      return event('checkout.session.completed', { ...session.object, status: 'complete', payment_status: 'paid' }, session.account);
    },
    /** invoice.paid of the subscription's first invoice (the checkout's). */
    firstInvoicePaidEvent(subscriptionId: string, shape: InvoiceShape = 'current'): string {
      const sub = subs.get(subscriptionId);
      return event('invoice.paid', invoiceAs(sub.invoices[0]!, shape), sub.account);
    },
    /** A period passes: its invoice is paid (or fails); returns the events Stripe sends, in its order, the invoice in `shape`. */
    renew(subscriptionId: string, outcome: 'paid' | 'failed' = 'paid', shape: InvoiceShape = 'current'): { invoiceId: string; paymentIntentId: string | null; events: string[] } {
      const sub = subs.get(subscriptionId);
      const invoice = subs.renew(subscriptionId, outcome === 'paid');
      const invoiceEvent = event(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoiceAs(invoice, shape), sub.account);
      const paymentIntentId = (invoice.payments.data[0]?.payment.payment_intent as string | undefined) ?? null;
      return { invoiceId: invoice.id, paymentIntentId, events: [event('customer.subscription.updated', sub.object, sub.account), invoiceEvent] };
    },
    /** Every refund made through the API, in order. */
    refunds,
    portalSessions,
    /**
     * A refund made outside the API (the seller's dashboard): all that is left, or `amount`. The
     * charge.refunded Stripe sends then, with its cumulative figures; `legacy` charges name their invoice.
     */
    refundInDashboard(paymentIntentId: string, amount?: number, shape: 'current' | 'legacy' = 'current'): string {
      const charge = charges.get(paymentIntentId);
      if (!charge) throw new Error(`fake Stripe holds no payment ${paymentIntentId}`);
      charge.refunded = Math.min(charge.amount, charge.refunded + (amount ?? charge.amount - charge.refunded));
      return this.chargeRefundedEvent(paymentIntentId, shape);
    },
    /** charge.refunded as Stripe sends it for the payment as it stands. */
    chargeRefundedEvent(paymentIntentId: string, shape: 'current' | 'legacy' = 'current'): string {
      const c = charges.get(paymentIntentId)!;
      const object = {
        id: c.id, object: 'charge', amount: c.amount, amount_refunded: c.refunded, refunded: c.refunded >= c.amount, payment_intent: paymentIntentId,
        ...(shape === 'legacy' ? { invoice: c.invoice } : {}),
      };
      return event('charge.refunded', object, c.account);
    },
    /** charge.dispute.closed of the payment: the buyer's bank decided (`lost`: the money is gone). */
    disputeClosedEvent(paymentIntentId: string, status: 'lost' | 'won' = 'lost'): string {
      const c = charges.get(paymentIntentId)!;
      return event('charge.dispute.closed', { id: `dp_${uid()}`, object: 'dispute', amount: c.amount, charge: c.id, payment_intent: paymentIntentId, status }, c.account);
    },
    /** customer.subscription.updated with the subscription as it is now. */
    subscriptionUpdatedEvent(subscriptionId: string): string {
      const sub = subs.get(subscriptionId);
      return event('customer.subscription.updated', sub.object, sub.account);
    },
    /** The subscription ends (at its period end, or Stripe gave up on its payments): customer.subscription.deleted. */
    endSubscription(subscriptionId: string): string {
      const sub = subs.get(subscriptionId);
      sub.object.status = 'canceled';
      return event('customer.subscription.deleted', sub.object, sub.account);
    },
    markExpired(id: string) {
      const session = sessions.get(id);
      if (!session) throw new Error(`fake Stripe has no session ${id}`);
      session.object = { ...session.object, status: 'expired' };
    },
    /** The next `times` requests answer `status` with a Stripe api_error (retries included). */
    failNext(status: number, times = 1) {
      failures = { status, remaining: times };
    },
    /** Every PaymentIntent created, in order (replays of an idempotency key create none). */
    intents,
    /** From now on, charges of this payment method are declined with this decline code (e.g. insufficient_funds). */
    declineCard(paymentMethodId: string, declineCode = 'generic_decline') {
      cards.set(paymentMethodId, declineCode);
    },
    /**
     * From now on, charges of this payment method need the card holder to authenticate (3-D Secure):
     * `card_error` is what off-session confirmation answers; `requires_action` leaves the intent waiting instead.
     */
    requireAuthentication(paymentMethodId: string, as: 'card_error' | 'requires_action' = 'card_error') {
      cards.set(paymentMethodId, as === 'card_error' ? 'authentication_required' : 'requires_action');
    },
    stop: () => server.stop(true),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** A Stripe event envelope as webhooks deliver it. */
export function stripeEvent(type: string, object: Record<string, unknown>, account?: string, created = 1_767_225_600): string {
  const id = `evt_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
  return JSON.stringify({ id, object: 'event', type, api_version: '2025-01-01', created, livemode: false, ...(account ? { account } : {}), data: { object } });
}

/** A `Stripe-Signature` header made by the SDK's own test helper; `timestamp` in seconds. */
export function signatureHeader(payload: string, secret: string, timestamp: number): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}
