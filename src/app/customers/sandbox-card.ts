import type { SavedCardDetails } from '../../domain/checkout-session.ts';
import { signInPhone } from '../../domain/customer.ts';
import { ConflictError, DomainError, NotFoundError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import { nameLookup } from './names.ts';

/**
 * The sandbox's card form (docs/customers.md, "Change the card"): POST /customer/card hands a
 * sandbox subscription's buyer a link to it, made of the customer, the subscription, the link's end
 * and a MAC over the three, so only the one it was handed to opens it, for 30 minutes.
 */

/** How long the sandbox card form's link works. */
export const CARD_LINK_LIFETIME_MS = 30 * 60_000;

export function sandboxCardUrl(deps: Pick<Deps, 'derivedSecrets' | 'settings'>, customerId: string, subscriptionId: string, expiresAt: number): string {
  const t = deps.derivedSecrets.pageLinkMac('card', cardLinkPayload({ customerId, subscriptionId, expiresAt }));
  return `${deps.settings.apiBaseUrl}/account/card/${encodeURIComponent(subscriptionId)}?${new URLSearchParams({ c: customerId, e: String(expiresAt), t })}`;
}

/** The sandbox card form's link: which customer's subscription, until when, and its MAC. */
export interface CardLink {
  customerId: string;
  subscriptionId: string;
  expiresAt: number;
  mac: string;
}

export const cardLinkPayload = (link: Omit<CardLink, 'mac'>) => `${link.customerId}:${link.subscriptionId}:${link.expiresAt}`;

type CardDeps = Pick<Deps, 'clock' | 'ids' | 'derivedSecrets' | 'subscriptions' | 'customers' | 'cards' | 'products' | 'developers'>;

/** The subscription a sandbox card link opens, while the link is genuine, unexpired and the subscription live. */
export async function openCardLink(deps: CardDeps, link: CardLink) {
  if (!deps.derivedSecrets.pageLinkValid('card', cardLinkPayload(link), link.mac)) throw new NotFoundError('subscription');
  if (deps.clock.now() >= link.expiresAt) throw new DomainError('otp_expired', 'This link has expired: open Change card on your account page again.');
  const subscription = await deps.subscriptions.findForCustomer(link.customerId, link.subscriptionId);
  if (!subscription || subscription.processor !== 'sandbox') throw new NotFoundError('subscription');
  if (subscription.status === 'canceled') throw new ConflictError('conflict', 'This subscription has ended: it renews with no card.');
  return { subscription, productName: await nameLookup(deps).productName(subscription.productId) };
}

/**
 * The sandbox card form records the new card as the buyer's card saved with this seller (as a
 * sandbox checkout saves one), under the confirmed phone, so it is offered to their next purchases.
 */
export async function recordSandboxCard(deps: CardDeps, link: CardLink, card: SavedCardDetails): Promise<SavedCardDetails> {
  const { subscription } = await openCardLink(deps, link);
  const customer = await deps.customers.findById(subscription.customerId);
  const saved = await deps.cards.save({
    ...card,
    id: deps.ids.next('card'),
    customerId: subscription.customerId,
    developerId: subscription.developerId,
    processorCustomerId: null,
    phone: signInPhone(customer),
    createdAt: deps.clock.now(),
  });
  return { processorPaymentMethodId: saved.processorPaymentMethodId, brand: saved.brand, last4: saved.last4, expMonth: saved.expMonth, expYear: saved.expYear };
}
