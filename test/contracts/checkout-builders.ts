import type { SavedCard } from '../../src/domain/card.ts';
import { CHECKOUT_LIFETIME_MS, type CheckoutSession } from '../../src/domain/checkout-session.ts';
import type { ConnectState } from '../../src/domain/connect.ts';
import type { Customer } from '../../src/domain/customer.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aProduct, givenDeveloper, T0, unique } from './builders.ts';

export function aCheckoutSession(parties: { developerId: string; productId: string }, overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  const id = `cs_${unique()}`;
  return {
    id,
    ...parties,
    amount: 4_900,
    currency: 'usd',
    email: 'buyer@example.com',
    successUrl: 'https://shop.example.com/thanks',
    cancelUrl: 'https://shop.example.com/cart',
    processor: 'sandbox',
    processorSessionId: null,
    checkoutUrl: null,
    storedStatus: 'pending',
    createdAt: T0,
    expiresAt: T0 + CHECKOUT_LIFETIME_MS,
    completedAt: null,
    licenseId: null,
    customerId: null,
    paymentId: null,
    reconciledAt: null,
    ...overrides,
  };
}

/** Stores a developer and a product to sell. */
export async function givenSeller(store: Store) {
  const { developer } = await givenDeveloper(store);
  const product = aProduct(developer.id);
  await store.products.create(product);
  return { developerId: developer.id, productId: product.id };
}

/** Stores a pending checkout session (and its seller) and returns it. */
export async function givenCheckout(store: Store, overrides: Partial<CheckoutSession> = {}): Promise<CheckoutSession> {
  const session = aCheckoutSession(await givenSeller(store), overrides);
  await store.checkouts.create(session);
  return session;
}

/** What a completion records: a license id (not checked against licenses), the buyer, the payment. */
export function anOutcome(overrides: Partial<{ licenseId: string; customerId: string; paymentId: string | null; completedAt: number }> = {}) {
  return { licenseId: `lic_${unique()}`, customerId: `cus_${unique()}`, paymentId: `pi_${unique()}`, completedAt: T0 + 60_000, ...overrides };
}

export function aConnectState(developerId: string, overrides: Partial<ConnectState> = {}): ConnectState {
  return { stateHash: `state_${unique()}`, developerId, expiresAt: T0 + 10 * 60_000, usedAt: null, ...overrides };
}

export function aSavedCard(owners: { customerId: string; developerId: string }, overrides: Partial<SavedCard> = {}): SavedCard {
  return {
    id: `card_${unique()}`,
    ...owners,
    processorCustomerId: `cus_stripe_${unique()}`,
    processorPaymentMethodId: `pm_${unique()}`,
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
    phone: null,
    createdAt: T0,
    ...overrides,
  };
}

/** Stores a developer and a customer who can save cards with them. */
export async function givenCardOwners(store: Store, customer: Partial<Customer> = {}) {
  const { developer } = await givenDeveloper(store);
  const owner = await store.customers.findOrCreate(aCustomer(customer));
  return { developerId: developer.id, customerId: owner.id };
}
