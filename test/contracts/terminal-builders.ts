import type { IdentityToken } from '../../src/domain/identity-token.ts';
import { OTP_LIMITS, type OtpChallenge } from '../../src/domain/otp-challenge.ts';
import type { Purchase } from '../../src/domain/purchase.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, T0, unique } from './builders.ts';
import { aSavedCard, givenSeller } from './checkout-builders.ts';

/** A login challenge for an e-mail with no customer unless one is given. */
export function anOtpChallenge(overrides: Partial<OtpChallenge> = {}): OtpChallenge {
  return {
    id: `otp_${unique()}`,
    scope: 'login',
    subject: `buyer-${unique()}@example.com`,
    customerId: null,
    codeDigest: `digest_${unique()}`,
    createdAt: T0,
    expiresAt: T0 + OTP_LIMITS.lifetimeMs,
    attempts: 0,
    usedAt: null,
    ...overrides,
  };
}

export async function givenCustomer(store: Store, overrides: Parameters<typeof aCustomer>[0] = {}) {
  return store.customers.findOrCreate(aCustomer(overrides));
}

/** Stores a challenge (for a stored customer) and returns it. */
export async function givenOtp(store: Store, overrides: Partial<OtpChallenge> = {}): Promise<OtpChallenge> {
  const customer = await givenCustomer(store);
  const challenge = anOtpChallenge({ customerId: customer.id, subject: customer.email, ...overrides });
  await store.otps.create(challenge);
  return challenge;
}

export function anIdentityToken(customerId: string, overrides: Partial<IdentityToken> = {}): IdentityToken {
  return {
    tokenHash: `hash_${unique()}`,
    customerId,
    deviceFingerprint: `fp_${unique()}`,
    createdAt: T0,
    expiresAt: T0 + 30 * 86_400_000,
    revokedAt: null,
    ...overrides,
  };
}

export function aPurchase(parties: { customerId: string; developerId: string; productId: string }, overrides: Partial<Purchase> = {}): Purchase {
  return {
    id: `pur_${unique()}`,
    ...parties,
    amount: 4_900,
    currency: 'usd',
    status: 'pending',
    attempt: 0,
    chargingSince: null,
    cardId: null,
    paymentId: null,
    licenseId: null,
    createdAt: T0,
    ...overrides,
  };
}

/** Stores a seller, a buyer with two saved cards, and returns them ready for purchases. */
export async function givenPurchaseParties(store: Store) {
  const seller = await givenSeller(store);
  const customer = await givenCustomer(store);
  const owners = { customerId: customer.id, developerId: seller.developerId };
  const card = await store.cards.save(aSavedCard(owners));
  const otherCard = await store.cards.save(aSavedCard(owners));
  return { parties: { ...seller, customerId: customer.id }, card, otherCard };
}

/** Stores a pending purchase (and its parties) and returns it with the buyer's cards. */
export async function givenPurchase(store: Store, overrides: Partial<Purchase> = {}) {
  const { parties, card, otherCard } = await givenPurchaseParties(store);
  const purchase = aPurchase(parties, overrides);
  await store.purchases.create(purchase);
  return { purchase, card, otherCard, parties };
}
