import { cardUsableWith, type SavedCard } from '../../domain/card.ts';
import { NEW_ORDER } from '../../domain/order.ts';
import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { expiryFor, viewLicense, type License, type LicenseView } from '../../domain/license.ts';
import { CHARGE_TAKEOVER_MS, type Purchase } from '../../domain/purchase.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode } from '../auth/check-code.ts';
import { receiptContext, receiptFor } from '../mail/receipt.ts';
import { applyReversals } from '../orders/settle-refund.ts';
import { issueOrConvert } from '../trials/convert-trial.ts';
import { ownPurchase, purchaseLockKey } from './purchase.ts';

type ConfirmDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'licenses' | 'products' | 'cards' | 'customers' | 'purchases' | 'connections' | 'processor' | 'otps' | 'otpCodes' | 'settings' | 'orders' | 'developers' | 'derivedSecrets' | 'sms' | 'subscriptions'
>;

export interface ConfirmedPurchase {
  license: LicenseView;
  licenseKey: string;
}

/** How long a confirm waits for a concurrent one that is charging the same purchase. */
const WAIT_FOR_OTHER_MS = 20_000;

/**
 * Checks the purchase code, charges the chosen saved card off-session once, and issues one license.
 * Confirming again returns the same license and charges nothing; concurrent confirms share one
 * charge (the store lets one of them charge; the processor's idempotency key covers retries).
 * A decline leaves the purchase open for another card.
 */
export async function confirmPurchase(
  deps: ConfirmDeps,
  customerId: string,
  input: { purchaseId: string; otpId: string; otp: string; cardId: string },
): Promise<ConfirmedPurchase> {
  const purchase = await ownPurchase(deps, customerId, input.purchaseId);
  if (purchase.status === 'paid') return confirmed(deps, purchase);
  const card = await chargeableCard(deps, customerId, purchase, input.cardId);
  const challenge = await checkCodeUnlessSettled(deps, purchase, input);
  if ('settled' in challenge) return challenge.settled;
  const now = deps.clock.now();
  const { started, purchase: current } = await deps.purchases.beginCharge(purchase.id, card.id, now, now - CHARGE_TAKEOVER_MS);
  if (!started) return current.status === 'paid' ? confirmed(deps, current) : waitForOther(deps, purchase.id);
  const account = await deps.connections.accountOf(purchase.developerId);
  if (!account) {
    await deps.purchases.chargeFailed(purchase.id, current.attempt);
    throw new DomainError('not_connected', 'The seller cannot take payments right now.');
  }
  let paymentId: string;
  try {
    ({ paymentId } = await deps.processor.chargeSavedCard({
      amount: purchase.amount,
      currency: purchase.currency,
      accountId: account.accountId,
      processorCustomerId: card.processorCustomerId,
      processorPaymentMethodId: card.processorPaymentMethodId,
      idempotencyKey: `purchase-${purchase.id}-${current.attempt}`,
      description: `License purchase ${purchase.id}`,
      metadata: { purchase_id: purchase.id, product_id: purchase.productId },
    }));
  } catch (error) {
    // A decline is certain: another card may be tried. Anything else may or may not have charged:
    // the attempt stays open and is retried under the same idempotency key after a while.
    if (error instanceof DomainError && (error.code === 'card_declined' || error.code === 'authentication_required')) {
      await deps.purchases.chargeFailed(purchase.id, current.attempt);
    }
    throw error;
  }
  const license = await issueOnce(deps, purchase);
  // Before markPaid: a crash in between leaves the purchase charging, and its retry records the same order (one per purchase).
  await recordOrder(deps, purchase, license, paymentId);
  await deps.purchases.markPaid(purchase.id, { paymentId, licenseId: license.id });
  await deps.otps.consume(challenge.id, deps.clock.now());
  return { license: viewLicense(license, deps.clock.now()), licenseKey: license.licenseKey };
}

/**
 * The chosen card, when it is this customer's, saved with this seller, and belongs to the phone on
 * file; any other card does not exist for them (404, as an unknown id).
 */
async function chargeableCard(deps: ConfirmDeps, customerId: string, purchase: Purchase, cardId: string): Promise<SavedCard> {
  const card = await deps.cards.findById(cardId);
  const customer = await deps.customers.findById(customerId);
  if (!card || card.customerId !== customerId || card.developerId !== purchase.developerId || !cardUsableWith(card, customer, deps.sms !== null)) {
    throw new NotFoundError('card');
  }
  return card;
}

/**
 * The code is checked, unless a concurrent confirm of this purchase got there first: a repeat that
 * finds the purchase paid (or being charged) answers with its license, whatever its code's fate.
 */
async function checkCodeUnlessSettled(
  deps: ConfirmDeps,
  { id: purchaseId, customerId }: Purchase,
  input: { otpId: string; otp: string },
): Promise<Awaited<ReturnType<typeof checkCode>> | { settled: ConfirmedPurchase }> {
  try {
    const lockKey = purchaseLockKey(customerId);
    return await checkCode(deps, { otpId: input.otpId, code: input.otp, scope: 'purchase', subject: purchaseId, lockKey });
  } catch (error) {
    const now = await deps.purchases.findById(purchaseId);
    if (now?.status === 'paid') return { settled: await confirmed(deps, now) };
    if (now?.status === 'charging') return { settled: await waitForOther(deps, purchaseId) };
    throw error;
  }
}

async function issueOnce(deps: ConfirmDeps, purchase: Purchase): Promise<License> {
  const product = await deps.products.findById(purchase.productId);
  if (!product) throw new NotFoundError('product');
  const issuedAt = deps.clock.now();
  const terms = {
    developerId: purchase.developerId,
    productId: purchase.productId,
    customerId: purchase.customerId,
    features: product.features,
    issuedAt,
    expiresAt: expiryFor(product.licenseDays, issuedAt),
    maxMachines: product.maxMachines,
  };
  const buyer = await deps.customers.findById(purchase.customerId);
  if (!buyer) throw new NotFoundError('customer');
  const context = await receiptContext(deps, purchase.developerId, purchase.productId, buyer.email);
  const receipt = receiptFor(deps, context, { kind: 'paid', amount: purchase.amount, currency: purchase.currency });
  try {
    // A trial of the product held by the buyer becomes this license (same id and machines).
    return await issueOrConvert(deps, terms, { purchaseId: purchase.id }, receipt);
  } catch (error) {
    const winner = error instanceof DomainError && error.code === 'conflict' ? await deps.licenses.findByPurchase(purchase.id) : null;
    if (!winner) throw error;
    return winner;
  }
}

/** Its payment refunded already (the refund's event came first): the order records it, the license goes. */
async function recordOrder(deps: ConfirmDeps, purchase: Purchase, license: License, paymentId: string): Promise<void> {
  const order = await deps.orders.record({
    // Named after its purchase, as the migration named the orders of purchases paid before orders existed.
    id: `ord_${purchase.id.slice('pur_'.length)}`,
    developerId: purchase.developerId,
    customerId: purchase.customerId,
    productId: purchase.productId,
    licenseId: license.id,
    source: 'purchase',
    sourceId: purchase.id,
    amount: purchase.amount,
    currency: purchase.currency,
    processor: deps.processor.kind,
    paymentId,
    processorReference: null,
    ...NEW_ORDER,
    createdAt: deps.clock.now(),
  });
  await applyReversals(deps, order);
}

async function confirmed(deps: ConfirmDeps, purchase: Purchase): Promise<ConfirmedPurchase> {
  const license = (purchase.licenseId && (await deps.licenses.findById(purchase.licenseId))) || (await deps.licenses.findByPurchase(purchase.id));
  if (!license) throw new NotFoundError('license');
  return { license: viewLicense(license, deps.clock.now()), licenseKey: license.licenseKey };
}

/** Another confirm of the same purchase is charging: its outcome is this one's too. */
async function waitForOther(deps: ConfirmDeps, purchaseId: string): Promise<ConfirmedPurchase> {
  for (let waited = 0; waited < WAIT_FOR_OTHER_MS; waited += 50) {
    await deps.clock.sleep(50);
    const purchase = await deps.purchases.findById(purchaseId);
    if (purchase?.status === 'paid') return confirmed(deps, purchase);
    if (purchase?.status === 'pending') throw new DomainError('card_declined', 'The card was declined: choose another card or try again.');
  }
  throw new DomainError('conflict', 'Another confirmation of this purchase is still in progress: try again in a moment.');
}
