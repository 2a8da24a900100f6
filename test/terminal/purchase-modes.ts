import type { FakeStripe } from '../support/fake-stripe.ts';
import { DECLINES_LATER, EMAIL, NEEDS_AUTHENTICATION_LATER, openTerminal, PAYS, PHONE, type Terminal } from './terminal.ts';

/**
 * The purchase tests run twice: with the sandbox processor (cards saved through the sandbox Pay form,
 * Stripe's off-session test numbers) and with StripeProcessor against the local fake (cards saved
 * by a completed checkout; the fake told which payment methods decline or need authentication).
 */
export type Mode = 'sandbox' | 'stripe';
/** `pays_too`: another card that pays (a Mastercard ending 4444). */
export type CardKind = 'pays' | 'pays_too' | 'declines' | 'needs_authentication';

const SANDBOX_NUMBERS: Record<CardKind, string> = {
  pays: PAYS, pays_too: '5555 5555 5555 4444', declines: DECLINES_LATER, needs_authentication: NEEDS_AUTHENTICATION_LATER,
};
const LAST4: Record<CardKind, string> = { pays: '4242', pays_too: '4444', declines: '0341', needs_authentication: '3184' };

export interface Buyer {
  email: string;
  phone: string;
}

export const ADA: Buyer = { email: EMAIL, phone: PHONE };
export const GRACE: Buyer = { email: 'grace@example.com', phone: '+15557654321' };

export async function openPurchaseShop(mode: Mode, fake: FakeStripe) {
  const t = await openTerminal(mode === 'stripe' ? { fake } : {});

  /**
   * The buyer pays a checkout of `productId` (default: the shop's product) with a card of this kind,
   * which is saved with that product's seller. Returns the card's last four digits.
   */
  const saveCard = async (kind: CardKind = 'pays', buyer: Buyer = ADA, seller?: { apiKey: string; productId: string }) => {
    const productId = seller?.productId ?? t.dev.product.id;
    const key = seller?.apiKey ?? t.dev.apiKey;
    if (mode === 'sandbox') {
      await t.payInBrowser({ ...buyer, cardNumber: SANDBOX_NUMBERS[kind] }, productId, key);
      return LAST4[kind];
    }
    const paymentMethod = `pm_${kind}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    if (kind === 'declines') fake.declineCard(paymentMethod, 'insufficient_funds');
    if (kind === 'needs_authentication') fake.requireAuthentication(paymentMethod);
    const card = { processorPaymentMethodId: paymentMethod, brand: 'visa', last4: LAST4[kind], expMonth: 12, expYear: 2030 };
    await t.buy({ ...buyer, processorCustomerId: `cus_${buyer.email.split('@')[0]}`, paymentId: `pi_checkout_${crypto.randomUUID()}`, card }, productId, key);
    return LAST4[kind];
  };

  /** Charges made for this purchase: PaymentIntents the fake created (Stripe), or attempts the store began (sandbox). */
  const chargesOf = (purchaseId: string): number => {
    if (mode === 'stripe') return fake.intents.filter((i) => i.idempotencyKey?.startsWith(`purchase-${purchaseId}-`)).length;
    const row = t.store.sqlite.query('SELECT attempt FROM purchases WHERE id = ?').get(purchaseId) as { attempt: number } | null;
    return row?.attempt ?? 0;
  };

  /** Successful charges of this purchase (Stripe: succeeded intents; sandbox: 1 once paid). */
  const paidCharges = (purchaseId: string): number => {
    if (mode === 'stripe') return fake.intents.filter((i) => i.idempotencyKey?.startsWith(`purchase-${purchaseId}-`) && i.status === 'succeeded').length;
    const row = t.store.sqlite.query('SELECT status FROM purchases WHERE id = ?').get(purchaseId) as { status: string } | null;
    return row?.status === 'paid' ? 1 : 0;
  };

  /** The licenses the store holds for this buyer and product. */
  const licensesFor = (productId: string, buyer: Buyer = ADA) =>
    t.store.sqlite
      .query('SELECT l.id FROM licenses l JOIN customers c ON c.id = l.customer_id WHERE c.email = ? AND l.product_id = ?')
      .all(buyer.email, productId) as { id: string }[];

  const cardOf = (cards: { id: string; last4: string }[], last4: string) => {
    const card = cards.find((c) => c.last4 === last4);
    if (!card) throw new Error(`no card ending ${last4} in ${JSON.stringify(cards)}`);
    return card.id;
  };

  return { t, saveCard, chargesOf, paidCharges, licensesFor, cardOf };
}

export type PurchaseShop = Awaited<ReturnType<typeof openPurchaseShop>>;
