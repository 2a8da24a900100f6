import { createHash } from 'node:crypto';
import type { Completion } from '../../domain/checkout-session.ts';
import { normalizeEmail } from '../../domain/developer.ts';
import { normalizePhone } from '../../domain/phone.ts';

export type SandboxFailure = 'declined' | 'invalid_card' | 'invalid_email' | 'invalid_phone';
export type SandboxPayment = { ok: true; completion: Completion } | { ok: false; reason: SandboxFailure };

/** Stripe's test card "generic decline": declined here as there. */
export const DECLINED_CARD_NUMBER = '4000000000000002';
/** Stripe's off-session test cards: both pay at checkout and are saved; later charges fail. */
export const OFF_SESSION_DECLINE_CARD_NUMBER = '4000000000000341';
export const OFF_SESSION_AUTHENTICATION_CARD_NUMBER = '4000002760003184';

/** What a saved sandbox card does when charged off-session: the processor reads it from the payment-method id. */
export type SavedCardBehaviour = 'pays' | 'declines' | 'needs_authentication';
const PAYMENT_METHOD_PREFIX: Record<SavedCardBehaviour, string> = {
  pays: 'pm_sandbox_',
  declines: 'pm_sandbox_decline_',
  needs_authentication: 'pm_sandbox_auth_',
};

/** Sandbox cards expire in December, this many years from the payment. */
const CARD_YEARS = 3;

const sha16 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 16);

/**
 * What paying on the sandbox checkout page amounts to: the same Completion a Stripe
 * `checkout.session.completed` yields (customer, phone, saved card, payment), or why it failed.
 * Ids are derived from the inputs, so paying twice with the same card and e-mail names the same
 * card and customer, as Stripe would on one connected account.
 */
export function sandboxCompletion(sessionId: string, form: { email: string; phone: string; cardNumber: string }, now: number): SandboxPayment {
  const email = normalizeEmail(form.email);
  if (!email) return { ok: false, reason: 'invalid_email' };
  const phone = normalizePhone(form.phone);
  if (!phone) return { ok: false, reason: 'invalid_phone' };
  const card = cardDigits(form.cardNumber);
  if (!card) return { ok: false, reason: 'invalid_card' };
  if (card === DECLINED_CARD_NUMBER) return { ok: false, reason: 'declined' };
  return {
    ok: true,
    completion: {
      email,
      phone,
      processorCustomerId: `cus_sandbox_${sha16(email)}`,
      paymentId: `pi_sandbox_${sessionId}`,
      card: {
        processorPaymentMethodId: sandboxPaymentMethodId(email, card),
        brand: cardBrand(card),
        last4: card.slice(-4),
        expMonth: 12,
        expYear: new Date(now).getUTCFullYear() + CARD_YEARS,
      },
    },
  };
}

/**
 * `pm_sandbox_<digest of e-mail and card>`, with `decline_` or `auth_` before the digest for the
 * off-session test cards. The e-mail is part of it: every buyer typing the pre-filled 4242 card has
 * a payment method of their own, as each Stripe customer does.
 */
export function sandboxPaymentMethodId(email: string, card: string): string {
  const behaviour: SavedCardBehaviour =
    card === OFF_SESSION_DECLINE_CARD_NUMBER ? 'declines' : card === OFF_SESSION_AUTHENTICATION_CARD_NUMBER ? 'needs_authentication' : 'pays';
  return `${PAYMENT_METHOD_PREFIX[behaviour]}${sha16(`${email}\n${card}`)}`;
}

/** Any id without a marked prefix pays, so cards saved by other means charge as ordinary ones. */
export function savedCardBehaviour(paymentMethodId: string): SavedCardBehaviour {
  if (paymentMethodId.startsWith(PAYMENT_METHOD_PREFIX.declines)) return 'declines';
  if (paymentMethodId.startsWith(PAYMENT_METHOD_PREFIX.needs_authentication)) return 'needs_authentication';
  return 'pays';
}

/** The sandbox page accepts phones as every checkout does (domain/phone.ts). */
export { normalizePhone };

/** The digits of a card number written with spaces or dashes: 12 to 19 of them, passing Luhn. */
export function cardDigits(value: string): string | null {
  const digits = value.trim().replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) && luhnValid(digits) ? digits : null;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The network, from the number's leading digits (IIN ranges), as Stripe names them. */
export function cardBrand(digits: string): string {
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if (digits.startsWith('4')) return 'visa';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (four === 6011 || two === 65) return 'discover';
  return 'unknown';
}
