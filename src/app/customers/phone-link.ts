import { signInPhone } from '../../domain/customer.ts';
import { ConflictError, DomainError, InvalidRequestError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { formatPhoneLink, parsePhoneLink, PHONE_LINK, phoneLinkPayload, type PhoneLinkClaims } from '../../domain/phone-link.ts';
import { maskPhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode, consumeCode, type CheckDeps } from '../auth/check-code.ts';
import { signedIn, type CodeSent, type CustomerLicense } from '../auth/login.ts';
import { sendCode, type SendDeps } from '../auth/send-code.ts';

/**
 * The receipt's phone link (docs/customers.md, "The receipt's link"). Opening it proves the e-mail
 * (it was mailed there); the code texted to the phone the checkout gave proves that phone. Both
 * together make that phone the customer's sign-in phone, and sign the customer in. It is offered
 * only to a customer with no confirmed phone, and works only while they still have none: once.
 */

type LinkDeps = SendDeps & CheckDeps & Pick<Deps, 'customers' | 'cards' | 'derivedSecrets' | 'hashing' | 'identityTokens' | 'licenses' | 'products'>;

/** The account page's URL that confirms the phone of this saved card, for the receipt. */
export function phoneLinkUrl(deps: Pick<Deps, 'clock' | 'derivedSecrets'>, accountUrl: string, customerId: string, cardId: string): string {
  const claims: PhoneLinkClaims = { customerId, cardId, expiresAt: deps.clock.now() + PHONE_LINK.lifetimeMs };
  return `${accountUrl}#${PHONE_LINK.fragment}=${formatPhoneLink(claims, deps.derivedSecrets.phoneLinkMac(phoneLinkPayload(claims)))}`;
}

/** Same subject as no other code: this customer confirming this card's phone through a link. */
const subjectOf = (claims: PhoneLinkClaims) => `${claims.customerId}:link:${claims.cardId}`;
/** Failures count with the phone-change codes': both confirm a phone. */
const lockKeyOf = (customerId: string) => `phone:${customerId}`;

const invalidLink = () => new InvalidRequestError('This link is not valid: sign in with your e-mail instead, and add your phone there.', 'token');

/** The link's claims and the phone it confirms, while the link still can confirm it. */
async function openLink(deps: LinkDeps, token: string): Promise<{ claims: PhoneLinkClaims; phone: string }> {
  const parsed = parsePhoneLink(token);
  if (!parsed || !deps.derivedSecrets.phoneLinkValid(phoneLinkPayload(parsed.claims), parsed.mac)) throw invalidLink();
  const { claims } = parsed;
  if (deps.clock.now() >= claims.expiresAt) throw new DomainError('otp_expired', 'This link has expired: sign in with your e-mail instead, and add your phone there.');
  if (!deps.sms) throw new DomainError('sms_unavailable', 'This service sends no text messages: sign in with your e-mail.');
  const [customer, card] = await Promise.all([deps.customers.findById(claims.customerId), deps.cards.findById(claims.cardId)]);
  // The MAC vouches for the pair; a card that moved or lost its phone confirms nothing.
  if (!customer || !card || card.customerId !== customer.id || !card.phone) throw invalidLink();
  if (signInPhone(customer) !== null) throw usedLink();
  return { claims, phone: card.phone };
}

const usedLink = () => new ConflictError('conflict', 'A sign-in phone is already confirmed for this e-mail: sign in with it.');

/** Texts a code to the phone the checkout gave. */
export async function startPhoneLink(deps: LinkDeps, input: { token: string }): Promise<CodeSent> {
  const { claims, phone } = await openLink(deps, input.token);
  const challenge = await sendCode(deps, {
    scope: 'phone',
    subject: subjectOf(claims),
    customerId: claims.customerId,
    to: { sms: phone },
    purpose: 'phone confirmation',
    lockKey: lockKeyOf(claims.customerId),
  });
  return { otpId: challenge.id, phoneMasked: maskPhone(phone), expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}

/**
 * Checks the code, makes the phone the customer's confirmed phone (only while none is: of concurrent
 * confirmations, one wins), and signs in on this device.
 */
export async function confirmPhoneLink(
  deps: LinkDeps,
  input: { token: string; otpId: string; otp: string; deviceFingerprint: string },
): Promise<{ identityToken: string; licenses: CustomerLicense[]; phoneMasked: string }> {
  const { claims, phone } = await openLink(deps, input.token);
  const challenge = await checkCode(deps, { otpId: input.otpId, code: input.otp, scope: 'phone', subject: subjectOf(claims), lockKey: lockKeyOf(claims.customerId) });
  await consumeCode(deps, challenge);
  if (!(await deps.customers.addPhone(claims.customerId, phone, deps.clock.now()))) throw usedLink();
  return { ...(await signedIn(deps, claims.customerId, input.deviceFingerprint)), phoneMasked: maskPhone(phone) };
}
