import { describe, expect, test } from 'bun:test';
import { FixedClock } from '../support/clock.ts';
import { signatureHeader, stripeEvent } from '../support/fake-stripe.ts';
import { processorFor, WEBHOOK_SECRET } from './fixtures.ts';

const clock = new FixedClock();
const processor = processorFor(null, clock);

/** Signs the event as Stripe would, parses it, and returns it with the event id it was sent under. */
async function deliver(type: string, object: Record<string, unknown>, account?: string) {
  const body = stripeEvent(type, object, account);
  const event = await processor.parseWebhook(body, await signatureHeader(body, WEBHOOK_SECRET, Math.floor(clock.now() / 1000)));
  return { event, eventId: JSON.parse(body).id as string };
}

const session = (fields: Record<string, unknown>) => ({
  id: 'cs_test_Stripe',
  object: 'checkout.session',
  client_reference_id: 'cs_ours',
  metadata: { checkout_session_id: 'cs_ours_meta' },
  ...fields,
});

describe('Stripe events the service acts on', () => {
  test('checkout.session.completed, paid, completes our session on the connected account', async () => {
    const { event, eventId } = await deliver('checkout.session.completed', session({ status: 'complete', payment_status: 'paid' }), 'acct_Seller');

    expect(event).toEqual({
      eventId,
      type: 'checkout.session.completed',
      kind: 'checkout_completed',
      accountId: 'acct_Seller',
      processorSessionId: 'cs_test_Stripe',
      sessionId: 'cs_ours',
    });
  });

  test('checkout.session.completed still unpaid (a delayed payment method) is ignored until the money arrives', async () => {
    const { event } = await deliver('checkout.session.completed', session({ status: 'complete', payment_status: 'unpaid' }), 'acct_Seller');

    expect(event).toMatchObject({ kind: 'ignored', type: 'checkout.session.completed' });
  });

  test('checkout.session.async_payment_succeeded completes the session', async () => {
    const { event } = await deliver('checkout.session.async_payment_succeeded', session({ payment_status: 'paid' }), 'acct_Seller');

    expect(event).toMatchObject({ kind: 'checkout_completed', processorSessionId: 'cs_test_Stripe', sessionId: 'cs_ours' });
  });

  test('our session id falls back to the metadata when client_reference_id is absent, and to null when both are', async () => {
    const fromMetadata = await deliver('checkout.session.completed', session({ payment_status: 'paid', client_reference_id: null }));
    const fromNothing = await deliver('checkout.session.completed', session({ payment_status: 'paid', client_reference_id: null, metadata: {} }));

    expect(fromMetadata.event).toMatchObject({ kind: 'checkout_completed', sessionId: 'cs_ours_meta', accountId: null });
    expect(fromNothing.event).toMatchObject({ kind: 'checkout_completed', sessionId: null, processorSessionId: 'cs_test_Stripe' });
  });

  test('checkout.session.expired expires the session', async () => {
    const { event, eventId } = await deliver('checkout.session.expired', session({ status: 'expired' }), 'acct_Seller');

    expect(event).toEqual({ eventId, type: 'checkout.session.expired', kind: 'checkout_expired', processorSessionId: 'cs_test_Stripe', sessionId: 'cs_ours' });
  });

  test('charge.refunded reverses the payment it refunds', async () => {
    const { event, eventId } = await deliver('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_Paid', refunded: true });

    expect(event).toEqual({ eventId, type: 'charge.refunded', kind: 'payment_reversed', accountId: null, paymentId: 'pi_Paid', invoiceId: null, refunded: 'all' });
  });

  test('a partial refund carries the cumulative amount; an older API version’s charge names its invoice; nothing refunded is ignored', async () => {
    const partial = await deliver('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_Paid', amount: 900, amount_refunded: 300, refunded: false, invoice: 'in_Old' }, 'acct_Seller');
    const nothing = await deliver('charge.refunded', { id: 'ch_2', object: 'charge', payment_intent: 'pi_Paid', amount: 900, amount_refunded: 0, refunded: false });

    expect(partial.event).toMatchObject({ kind: 'payment_reversed', accountId: 'acct_Seller', paymentId: 'pi_Paid', invoiceId: 'in_Old', refunded: 300 });
    expect(nothing.event).toMatchObject({ kind: 'ignored' });
  });

  test('a dispute closed as lost reverses the payment', async () => {
    const { event } = await deliver('charge.dispute.closed', { id: 'dp_1', object: 'dispute', status: 'lost', payment_intent: 'pi_Paid' });

    expect(event).toMatchObject({ kind: 'payment_reversed', paymentId: 'pi_Paid', refunded: 'all' });
  });

  test('a dispute closed as won leaves the license alone', async () => {
    const { event } = await deliver('charge.dispute.closed', { id: 'dp_1', object: 'dispute', status: 'won', payment_intent: 'pi_Paid' });

    expect(event).toMatchObject({ kind: 'ignored', type: 'charge.dispute.closed' });
  });

  test('a refund of a charge without a payment intent has nothing to reverse', async () => {
    const { event } = await deliver('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: null });

    expect(event).toMatchObject({ kind: 'ignored' });
  });

  test('account.application.deauthorized disconnects the account it came from', async () => {
    const { event, eventId } = await deliver('account.application.deauthorized', { id: 'ca_test_platform_client', object: 'application' }, 'acct_Seller');

    expect(event).toEqual({ eventId, type: 'account.application.deauthorized', kind: 'account_deauthorized', accountId: 'acct_Seller' });
  });

  test('any other type is acknowledged and ignored, keeping its id and type', async () => {
    const { event, eventId } = await deliver('customer.created', { id: 'cus_1', object: 'customer' });

    expect(event).toEqual({ eventId, type: 'customer.created', kind: 'ignored' });
  });
});
