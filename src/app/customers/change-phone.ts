import { ConflictError, DomainError, InvalidRequestError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { maskPhone, normalizePhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import type { CodeSent } from '../auth/login.ts';
import { checkCode, consumeCode, type CheckDeps } from '../auth/check-code.ts';
import { sendCode, type SendDeps } from '../auth/send-code.ts';

type ChangeDeps = SendDeps & CheckDeps & Pick<Deps, 'customers'>;

/**
 * The one way a phone on file changes (docs/customers.md): the logged-in customer names the new
 * phone, a code goes to the phone ALREADY on file, and the code confirms exactly that change. A
 * checkout never replaces a phone: it proves a card, not who owns the e-mail.
 */

/**
 * The code's subject: this customer moving from the phone the code was texted to, to this phone.
 * It confirms nothing else: not another phone, and not a move away from a phone that has since
 * replaced the one the code went to.
 */
const subjectOf = (customerId: string, from: string, to: string) => `${customerId}:${from}:${to}`;

/** Failures of phone-change codes count under their own key, and lock like sign-in's. */
const lockKeyOf = (customerId: string) => `phone:${customerId}`;

function newPhoneFrom(value: string): string {
  const phone = normalizePhone(value);
  if (!phone) throw new InvalidRequestError('phone must be a phone number with 7 to 15 digits, like +1 555 010 0000.', 'phone');
  return phone;
}

async function phoneOnFile(deps: Pick<Deps, 'customers'>, customerId: string): Promise<string> {
  const customer = await deps.customers.findById(customerId);
  if (!customer?.phone) throw new DomainError('no_phone_on_file', 'There is no phone number on file to confirm the change with.');
  return customer.phone;
}

/** Texts a code to the phone on file that confirms moving to `phone`. */
export async function requestPhoneChange(deps: ChangeDeps, customerId: string, input: { phone: string }): Promise<CodeSent> {
  const phone = newPhoneFrom(input.phone);
  const current = await phoneOnFile(deps, customerId);
  if (phone === current) throw new ConflictError('conflict', 'This phone number is already the one on file.');
  const challenge = await sendCode(deps, {
    scope: 'phone',
    subject: subjectOf(customerId, current, phone),
    customerId,
    phone: current,
    purpose: 'phone change',
    lockKey: lockKeyOf(customerId),
  });
  return { otpId: challenge.id, phoneMasked: maskPhone(current), expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}

/**
 * Checks the code, then moves the customer, and the cards saved under the old phone, to the new
 * phone: only while the old phone is still the one on file (of concurrent changes, one wins).
 */
export async function confirmPhoneChange(
  deps: ChangeDeps,
  customerId: string,
  input: { otpId: string; otp: string; phone: string },
): Promise<{ phoneMasked: string }> {
  const phone = newPhoneFrom(input.phone);
  const current = await phoneOnFile(deps, customerId);
  const challenge = await checkCode(deps, {
    otpId: input.otpId,
    code: input.otp,
    scope: 'phone',
    subject: subjectOf(customerId, current, phone),
    lockKey: lockKeyOf(customerId),
  });
  await consumeCode(deps, challenge);
  if (!(await deps.customers.changePhone(customerId, current, phone))) {
    throw new ConflictError('conflict', 'The phone on file changed meanwhile: start again.');
  }
  return { phoneMasked: maskPhone(phone) };
}
