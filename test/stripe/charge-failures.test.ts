import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import type Stripe from 'stripe';
import { STATUS_OF } from '../../src/adapters/http/errors.ts';
import { chargeOutcome } from '../../src/adapters/stripe/stripe-charge.ts';
import { startFakeStripe } from '../support/fake-stripe.ts';
import { aCharge, processorFor, rejectionOf, SECRET_KEY } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.intents.length = 0;
});

const processor = processorFor(fake);
const AUTHENTICATION_MESSAGE = 'This card needs its holder to confirm the payment: buy in the browser checkout instead.';
let cards = 0;
/** A payment method of its own for each test: the fake's card behaviours last. */
const aCard = () => `pm_Card${++cards}`;

/** What a caller (and so a client) can see of an error: never the key, a client secret or Stripe's wording. */
function shown(error: { message: string; details?: unknown }): string {
  return JSON.stringify({ message: error.message, details: error.details ?? null });
}

describe('a declined saved card', () => {
  test('is card_declined, a 402, with the decline code in the details and nothing secret in what is shown', async () => {
    const card = aCard();
    fake.declineCard(card, 'insufficient_funds');

    const error = await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card })));

    expect(error.code).toBe('card_declined');
    expect(STATUS_OF.card_declined).toBe(402);
    expect(error.details).toEqual({ processor: 'stripe', declineCode: 'insufficient_funds' });
    expect(error.message).toBe('The saved card was declined: use another card or buy in the browser checkout instead.');
    expect(shown(error)).not.toContain(SECRET_KEY);
    expect(shown(error)).not.toContain('_secret_');
    expect(shown(error)).not.toContain('Your card was declined');
  });

  test.each([
    ['generic_decline', 'generic_decline'],
    ['insufficient_funds', 'insufficient_funds'],
    ['lost_card', 'lost_card'],
    ['expired_card', 'expired_card'],
  ])('declined as %s is card_declined naming %s', async (declineCode, named) => {
    const card = aCard();
    fake.declineCard(card, declineCode);

    const error = await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card })));

    expect(error.code).toBe('card_declined');
    expect(error.details).toMatchObject({ declineCode: named });
  });

  test('is declined again when the attempt is retried under its key, without a second intent', async () => {
    const card = aCard();
    fake.declineCard(card, 'card_declined');
    const charge = aCharge({ processorPaymentMethodId: card });

    const first = await rejectionOf(() => processor.chargeSavedCard(charge));
    const again = await rejectionOf(() => processor.chargeSavedCard(charge));

    expect([first.code, again.code]).toEqual(['card_declined', 'card_declined']);
    expect(fake.intents).toHaveLength(1);
  });

  test('is tried again, as a new intent, by a new attempt with a new key', async () => {
    const card = aCard();
    fake.declineCard(card);

    await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card, idempotencyKey: 'purchase-charge-pur_7-1' })));
    await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card, idempotencyKey: 'purchase-charge-pur_7-2' })));

    expect(fake.intents.map((i) => i.idempotencyKey)).toEqual(['purchase-charge-pur_7-1', 'purchase-charge-pur_7-2']);
  });
});

describe('a saved card that needs its holder (3-D Secure)', () => {
  test('is authentication_required, a 402, telling the buyer to use the browser checkout', async () => {
    const card = aCard();
    fake.requireAuthentication(card);

    const error = await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card })));

    expect(error.code).toBe('authentication_required');
    expect(STATUS_OF.authentication_required).toBe(402);
    expect(error.message).toBe(AUTHENTICATION_MESSAGE);
    expect(shown(error)).not.toContain('_secret_');
  });

  test('left by Stripe as an intent in requires_action is authentication_required too, not a payment', async () => {
    const card = aCard();
    fake.requireAuthentication(card, 'requires_action');

    const error = await rejectionOf(() => processor.chargeSavedCard(aCharge({ processorPaymentMethodId: card })));

    expect(fake.intents[0]!.status).toBe('requires_action');
    expect(error.code).toBe('authentication_required');
    expect(error.message).toBe(AUTHENTICATION_MESSAGE);
  });
});

describe('Stripe failing', () => {
  test('an outage outlasting the SDK’s retries is processor_error; every retry carried the same key', async () => {
    const charge = aCharge();
    fake.failNext(503, 3);

    const error = await rejectionOf(() => processor.chargeSavedCard(charge));

    expect(error.code).toBe('processor_error');
    expect(STATUS_OF.processor_error).toBe(502);
    expect(error.message).toBe('Stripe could not charge the saved card; try again later.');
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([charge.idempotencyKey, charge.idempotencyKey, charge.idempotencyKey]);
    expect(fake.intents).toHaveLength(0);
  });

  test('an unreachable Stripe is processor_error, and nothing shown contains the secret key', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
    const deadBase = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);

    const error = await rejectionOf(() => processorFor({ url: deadBase }).chargeSavedCard(aCharge()));

    expect(error.code).toBe('processor_error');
    expect(shown(error)).not.toContain(SECRET_KEY);
  });

  test('an intent Stripe leaves processing is processor_error, not a payment', () => {
    const processing = { id: 'pi_Processing', object: 'payment_intent', status: 'processing' } as Stripe.PaymentIntent;

    expect(() => chargeOutcome(processing)).toThrow(expect.objectContaining({ code: 'processor_error' }));
  });
});
