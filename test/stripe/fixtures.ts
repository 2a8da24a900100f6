import { aCheckoutSession } from '../contracts/checkout-builders.ts';
import { CHECKOUT_LIFETIME_MS, type CheckoutSession } from '../../src/domain/checkout-session.ts';
import { checkoutOffer } from '../../src/domain/checkout-offer.ts';
import type { Product } from '../../src/domain/product.ts';
import type { SubscriptionTrial } from '../../src/domain/trial.ts';
import { StripeProcessor } from '../../src/adapters/stripe/stripe-processor.ts';
import { FixedClock } from '../support/clock.ts';
import { CONNECTED_ACCOUNT, type FakeStripe } from '../support/fake-stripe.ts';
import type { SavedCardCharge } from '../../src/ports/payment-processor.ts';

export const SECRET_KEY = 'sk_test_51PlatformSecretKeyNeverShown';
export const WEBHOOK_SECRET = 'whsec_test_platform_signing_secret';
export const CLIENT_ID = 'ca_test_platform_client';

export function processorFor(fake: Pick<FakeStripe, 'url'> | null, clock = new FixedClock(), webhookSecret: string | null = WEBHOOK_SECRET) {
  return new StripeProcessor({ secretKey: SECRET_KEY, webhookSecret, connectClientId: CLIENT_ID, apiBase: fake?.url ?? null, clock });
}

export function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: 'prod_Pro',
    developerId: 'dev_Seller',
    name: 'Pro Edition',
    price: 4900,
    currency: 'eur',
    features: ['pro'],
    licenseDays: null,
    maxMachines: 1,
    deactivationsPer30Days: 3,
    interval: null,
    graceDays: 3,
    trialDays: null,
    maxLeases: null,
    leaseSeconds: 600,
    maxBorrowHours: 0,
    active: true,
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/** The product with what startCheckout tells the buyer about it (sold by "Acme Tools"). */
export function forSale(product: Product, trial: SubscriptionTrial | null = null, now = 0) {
  return { product, offer: checkoutOffer({ product, sellerName: 'Acme Tools', now, trial }), trial };
}

export function aSession(now: number, overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  return aCheckoutSession(
    { developerId: 'dev_Seller', productId: 'prod_Pro' },
    {
      currency: 'eur',
      successUrl: 'https://app.example.com/thanks',
      cancelUrl: 'https://app.example.com/cancelled',
      processor: 'stripe',
      createdAt: now,
      expiresAt: now + CHECKOUT_LIFETIME_MS,
      ...overrides,
    },
  );
}

/** Runs `action` and returns the error it rejects with (or fails the test when it does not). */
export async function rejectionOf(action: () => Promise<unknown>): Promise<{ code?: string; message: string; details?: unknown }> {
  try {
    await action();
  } catch (error) {
    return error as { code?: string; message: string; details?: unknown };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A saved-card charge on the connected seller's account; each one has its own idempotency key unless told. */
export function aCharge(overrides: Partial<SavedCardCharge> = {}): SavedCardCharge {
  return {
    amount: 4900,
    currency: 'eur',
    accountId: CONNECTED_ACCOUNT,
    processorCustomerId: 'cus_Buyer',
    processorPaymentMethodId: 'pm_Saved',
    idempotencyKey: `purchase-charge-pur_${crypto.randomUUID()}-1`,
    description: 'Pro Edition',
    metadata: { purchase_id: 'pur_1', product_id: 'prod_Pro' },
    ...overrides,
  };
}
