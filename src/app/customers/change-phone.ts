import { signInPhone } from '../../domain/customer.ts';
import { ConflictError, DomainError, InvalidRequestError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { maskPhone, normalizePhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import type { CodeSent } from '../auth/login.ts';
import { checkCode, consumeCode, type CheckDeps } from '../auth/check-code.ts';
import { sendCode, type SendDeps } from '../auth/send-code.ts';

type ChangeDeps = SendDeps & CheckDeps & Pick<Deps, 'customers'>;

/**
 * The one way a customer gets a sign-in phone (docs/customers.md). The session proved the e-mail
 * (every identity token is issued to a sign-in that did, by an e-mailed code or a confirmed phone).
 * A customer without a confirmed phone names one and the code goes to THAT phone: entering it
 * proves the phone is theirs. A customer with one moves to another only with a code sent to the
 * confirmed phone. A checkout never sets a phone: it proves a card, not who owns the e-mail.
 */

/**
 * The code's subject: this customer moving from the phone the code was texted to (or from none:
 * `add`), to this phone. It confirms nothing else.
 */
const subjectOf = (customerId: string, from: string | null, to: string) => `${customerId}:${from ?? 'add'}:${to}`;

/** Failures of phone-change codes count under their own key, and lock like sign-in's. */
const lockKeyOf = (customerId: string) => `phone:${customerId}`;

function newPhoneFrom(value: string): string {
  const phone = normalizePhone(value);
  if (!phone) throw new InvalidRequestError('phone must be a phone number with 7 to 15 digits, like +1 555 010 0000.', 'phone');
  return phone;
}

/** The confirmed phone, or null; refused outright where the service sends no texts. */
async function confirmedPhone(deps: Pick<Deps, 'customers' | 'sms'>, customerId: string): Promise<string | null> {
  if (!deps.sms) throw new DomainError('sms_unavailable', 'This service sends no text messages: sign-in and purchase codes come by e-mail, so there is no phone to add.');
  return signInPhone(await deps.customers.findById(customerId));
}

/** Texts a code that confirms `phone`: to the confirmed phone when there is one, else to `phone` itself. */
export async function requestPhoneChange(deps: ChangeDeps, customerId: string, input: { phone: string }): Promise<CodeSent> {
  const phone = newPhoneFrom(input.phone);
  const current = await confirmedPhone(deps, customerId);
  if (phone === current) throw new ConflictError('conflict', 'This phone number is already the one on file.');
  const to = current ?? phone;
  const challenge = await sendCode(deps, {
    scope: 'phone',
    subject: subjectOf(customerId, current, phone),
    customerId,
    to: { sms: to },
    purpose: current ? 'phone change' : 'phone confirmation',
    lockKey: lockKeyOf(customerId),
  });
  return { otpId: challenge.id, phoneMasked: maskPhone(to), expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}

/**
 * Checks the code, then makes `phone` the customer's confirmed phone: added while none is confirmed,
 * or moved (with the cards saved under the old phone) while the old one still is (of concurrent
 * changes, one wins).
 */
export async function confirmPhoneChange(
  deps: ChangeDeps,
  customerId: string,
  input: { otpId: string; otp: string; phone: string },
): Promise<{ phoneMasked: string }> {
  const phone = newPhoneFrom(input.phone);
  const current = await confirmedPhone(deps, customerId);
  const challenge = await checkCode(deps, {
    otpId: input.otpId,
    code: input.otp,
    scope: 'phone',
    subject: subjectOf(customerId, current, phone),
    lockKey: lockKeyOf(customerId),
  });
  await consumeCode(deps, challenge);
  const now = deps.clock.now();
  const done = current ? await deps.customers.changePhone(customerId, current, phone, now) : await deps.customers.addPhone(customerId, phone, now);
  if (!done) throw new ConflictError('conflict', 'The phone on file changed meanwhile: start again.');
  return { phoneMasked: maskPhone(phone) };
}
