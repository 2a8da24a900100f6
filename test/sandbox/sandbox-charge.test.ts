import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { STATUS_OF } from '../../src/adapters/http/errors.ts';
import { sandboxCompletion } from '../../src/adapters/sandbox/sandbox-payment.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox/sandbox-processor.ts';
import type { SavedCardCharge } from '../../src/ports/payment-processor.ts';
import { API_BASE, GOOD_CARD, sandboxShop } from './support.ts';

const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);
const processor = new SandboxProcessor(API_BASE);
const OFF_SESSION_DECLINE = '4000 0000 0000 0341';
const NEEDS_AUTHENTICATION = '4000 0027 6000 3184';

function aCharge(overrides: Partial<SavedCardCharge> = {}): SavedCardCharge {
  return {
    amount: 1999,
    currency: 'usd',
    accountId: 'acct_sandbox_0123456789abcdef',
    processorCustomerId: `cus_sandbox_${sha16('buyer@example.com')}`,
    processorPaymentMethodId: `pm_sandbox_${sha16('4242424242424242')}`,
    idempotencyKey: 'purchase-charge-pur_1-1',
    description: 'Pro',
    metadata: { purchase_id: 'pur_1' },
    ...overrides,
  };
}

/** The payment method the sandbox checkout page saves for this card number. */
function savedAtCheckout(cardNumber: string): string {
  const payment = sandboxCompletion('cs_1', { ...GOOD_CARD, cardNumber }, Date.UTC(2026, 0, 1));
  if (!payment.ok || !payment.completion.card) throw new Error(`the checkout refused ${cardNumber}`);
  return payment.completion.card.processorPaymentMethodId;
}

async function failureOf(charge: SavedCardCharge) {
  try {
    await processor.chargeSavedCard(charge);
  } catch (error) {
    return error as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the charge to fail');
}

describe('a sandbox saved-card charge', () => {
  test('of an ordinary card pays, named pi_sandbox_ and the digest of its idempotency key', async () => {
    const result = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'purchase-charge-pur_1-1' }));

    expect(result).toEqual({ paymentId: `pi_sandbox_${sha16('purchase-charge-pur_1-1')}` });
  });

  test('under the same key names the same payment: a retried attempt is not a second charge', async () => {
    const charge = aCharge();

    const results = await Promise.all([processor.chargeSavedCard(charge), processor.chargeSavedCard(charge), processor.chargeSavedCard(charge)]);

    expect(new Set(results.map((r) => r.paymentId)).size).toBe(1);
  });

  test('under another key is another payment', async () => {
    const first = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'purchase-charge-pur_1-1' }));
    const second = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'purchase-charge-pur_1-2' }));

    expect(second.paymentId).not.toBe(first.paymentId);
  });

  test('never names a payment like a checkout payment (pi_sandbox_<session id>)', async () => {
    const { paymentId } = await processor.chargeSavedCard(aCharge({ idempotencyKey: 'cs_1' }));

    expect(paymentId).toMatch(/^pi_sandbox_[0-9a-f]{16}$/);
    expect(paymentId).not.toBe('pi_sandbox_cs_1');
  });

  test('of a card saved from 4242 4242 4242 4242 at the sandbox checkout pays', async () => {
    const result = await processor.chargeSavedCard(aCharge({ processorPaymentMethodId: savedAtCheckout('4242 4242 4242 4242') }));

    expect(result.paymentId).toStartWith('pi_sandbox_');
  });

  test('of a card saved from 4000 0000 0000 0341 is card_declined (402), as Stripe declines that card off-session', async () => {
    const error = await failureOf(aCharge({ processorPaymentMethodId: savedAtCheckout(OFF_SESSION_DECLINE) }));

    expect(error.code).toBe('card_declined');
    expect(STATUS_OF.card_declined).toBe(402);
    expect(error.details).toEqual({ processor: 'sandbox', declineCode: 'generic_decline' });
  });

  test('of a card saved from 4000 0027 6000 3184 is authentication_required, telling the buyer to use the browser', async () => {
    const error = await failureOf(aCharge({ processorPaymentMethodId: savedAtCheckout(NEEDS_AUTHENTICATION) }));

    expect(error.code).toBe('authentication_required');
    expect(error.message).toBe('This card needs its holder to confirm the payment: buy in the browser checkout instead.');
  });

  test('fails the same way however often it is retried under one key', async () => {
    const charge = aCharge({ processorPaymentMethodId: savedAtCheckout(OFF_SESSION_DECLINE) });

    const codes = [(await failureOf(charge)).code, (await failureOf(charge)).code];

    expect(codes).toEqual(['card_declined', 'card_declined']);
  });
});

describe('the sandbox checkout page', () => {
  test.each([
    [OFF_SESSION_DECLINE, 'pm_sandbox_decline_', '0341'],
    [NEEDS_AUTHENTICATION, 'pm_sandbox_auth_', '3184'],
  ])('accepts %s and saves it, marked %s, for the later charge to fail', async (cardNumber, prefix, last4) => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();

    const paid = await shop.pay(sessionId, { cardNumber });

    expect(paid.status).toBe(303);
    expect((await shop.status(sessionId)).status).toBe('complete');
    const session = await shop.api.deps.checkouts.findById(sessionId);
    const [card] = await shop.api.deps.cards.listFor(session!.customerId!, shop.seller.id);
    expect(card?.processorPaymentMethodId).toStartWith(prefix);
    expect(card?.last4).toBe(last4);
  });
});
