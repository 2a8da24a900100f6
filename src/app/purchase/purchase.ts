import { cardUsableWith } from '../../domain/card.ts';
import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { onSale } from '../../domain/product.ts';
import { signInPhone } from '../../domain/customer.ts';
import { maskEmail, maskPhone } from '../../domain/phone.ts';
import type { Purchase, PurchaseOffer } from '../../domain/purchase.ts';
import type { Deps } from '../../ports/deps.ts';
import type { CodeSent } from '../auth/login.ts';
import { sendCode } from '../auth/send-code.ts';

/**
 * A purchase of one product by a logged-in customer: its price now, and the cards saved with its
 * seller that belong to the phone on file (docs/customers.md).
 */
export async function startPurchase(
  deps: Pick<Deps, 'clock' | 'ids' | 'products' | 'connections' | 'cards' | 'purchases' | 'customers' | 'sms'>,
  customerId: string,
  input: { productId: string },
): Promise<PurchaseOffer> {
  const product = onSale(await deps.products.findById(input.productId));
  // A saved card pays once; a subscription needs the processor to bill it every period.
  if (product.interval) {
    throw new DomainError('subscription_requires_checkout', 'This product is a subscription: buy it in the browser checkout (POST /checkout/init), which sets up its recurring payments.');
  }
  if (!(await deps.connections.accountOf(product.developerId))) {
    throw new DomainError('not_connected', 'The seller cannot take payments right now.');
  }
  const purchase: Purchase = {
    id: deps.ids.next('pur'),
    customerId,
    developerId: product.developerId,
    productId: product.id,
    amount: product.price,
    currency: product.currency,
    status: 'pending',
    attempt: 0,
    chargingSince: null,
    cardId: null,
    paymentId: null,
    licenseId: null,
    createdAt: deps.clock.now(),
  };
  await deps.purchases.create(purchase);
  const cards = await usableCards(deps, customerId, product.developerId);
  return {
    purchaseId: purchase.id,
    productId: product.id,
    productName: product.name,
    amount: purchase.amount,
    currency: purchase.currency,
    cards: cards.map(({ id, brand, last4, expMonth, expYear }) => ({ id, brand, last4, expMonth, expYear })),
  };
}

/** The customer's cards with this seller that the phone on file may use, newest first. */
async function usableCards(deps: Pick<Deps, 'cards' | 'customers' | 'sms'>, customerId: string, developerId: string) {
  const customer = await deps.customers.findById(customerId);
  return (await deps.cards.listFor(customerId, developerId)).filter((card) => cardUsableWith(card, customer, deps.sms !== null));
}

/** The customer's own purchase, or 404 (another customer's purchase does not exist for them). */
export async function ownPurchase(deps: Pick<Deps, 'purchases'>, customerId: string, purchaseId: string): Promise<Purchase> {
  const purchase = await deps.purchases.findById(purchaseId);
  if (!purchase || purchase.customerId !== customerId) throw new NotFoundError('purchase');
  return purchase;
}

/** Failures of purchase codes count per customer under their own key, and lock like sign-in's. */
export const purchaseLockKey = (customerId: string) => `purchase:${customerId}`;

/**
 * Sends the code that confirms this purchase, and only this one: by text to the confirmed phone
 * (the one the usable cards belong to), or by e-mail where the service sends no texts.
 */
export async function sendPurchaseCode(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'otps' | 'otpCodes' | 'sms' | 'mailer' | 'rateLimiter' | 'customers' | 'purchases'>,
  customerId: string,
  input: { purchaseId: string },
): Promise<CodeSent> {
  const purchase = await ownPurchase(deps, customerId, input.purchaseId);
  if (purchase.status === 'paid') throw new DomainError('conflict', 'This purchase is already confirmed.');
  const customer = await deps.customers.findById(customerId);
  if (!customer) throw new NotFoundError('purchase');
  const phone = signInPhone(customer);
  if (deps.sms && !phone) throw new DomainError('no_phone_on_file', 'There is no confirmed phone to send the code to: confirm one on the account page (saved cards are used only through the phone their checkout gave).');
  const challenge = await sendCode(deps, {
    scope: 'purchase',
    subject: purchase.id,
    customerId,
    to: phone ? { sms: phone } : { email: customer.email },
    purpose: 'purchase',
    lockKey: purchaseLockKey(customerId),
  });
  return { otpId: challenge.id, phoneMasked: phone ? maskPhone(phone) : maskEmail(customer.email), expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}
