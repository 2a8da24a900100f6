import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError, RateLimitedError } from '../../domain/errors.ts';
import { IDENTITY_TOKEN_LIFETIME_MS, IDENTITY_TOKEN_PREFIX } from '../../domain/identity-token.ts';
import { licenseStatus, type LicenseStatus } from '../../domain/license.ts';
import { lockedFor, OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { decoyMaskedPhone, maskPhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode, consumeCode } from './check-code.ts';
import { sendCode } from './send-code.ts';

type LoginDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'otps' | 'otpCodes' | 'sms' | 'customers' | 'identityTokens' | 'licenses' | 'products'>;

export interface CodeSent {
  otpId: string;
  phoneMasked: string;
  /** Seconds. */
  expiresIn: number;
}

export interface CustomerLicense {
  id: string;
  productId: string;
  productName: string;
  status: LicenseStatus;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  licenseKey: string;
}

function loginEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!normalized) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  return normalized;
}

/**
 * Failures are counted per customer; an e-mail with no customer gets a counter of its own under
 * its digest, so it locks exactly like a real one and gives nothing away.
 */
const failureKey = (deps: Pick<Deps, 'hashing'>, customerId: string | null, email: string) =>
  customerId ?? `email:${deps.hashing.hash(email)}`;

/** Texts a login code. An unknown e-mail answers exactly like a known one and sends nothing. */
export async function startLogin(deps: LoginDeps, input: { email: string }): Promise<CodeSent> {
  const email = loginEmail(input.email);
  const customer = await deps.customers.findByEmail(email);
  if (customer && !customer.phone) throw new DomainError('no_phone_on_file', 'There is no phone number on file for this e-mail: buy in the browser once to add one.');
  const locked = lockedFor(await deps.otps.loginFailures(failureKey(deps, customer?.id ?? null, email)), deps.clock.now()) > 0;
  const challenge = await sendCode(deps, {
    scope: 'login',
    subject: email,
    customerId: customer?.id ?? null,
    phone: customer && !locked ? customer.phone : null,
    purpose: 'sign-in',
  });
  return {
    otpId: challenge.id,
    phoneMasked: customer?.phone ? maskPhone(customer.phone) : decoyMaskedPhone(deps.hashing.hash(`phone:${email}`)),
    expiresIn: OTP_LIMITS.lifetimeMs / 1000,
  };
}

/** Checks the code and returns an identity token bound to this device, with the customer's licenses. */
export async function verifyLogin(
  deps: LoginDeps,
  input: { email: string; otpId: string; otp: string; deviceFingerprint: string },
): Promise<{ identityToken: string; licenses: CustomerLicense[] }> {
  const email = loginEmail(input.email);
  const customer = await deps.customers.findByEmail(email);
  const key = failureKey(deps, customer?.id ?? null, email);
  const now = deps.clock.now();
  const failures = await deps.otps.loginFailures(key);
  // A lock that has run out starts the count again: one more wrong code must not lock for another hour.
  if (failures?.lockedUntil && now >= failures.lockedUntil) await deps.otps.resetLoginFailures(key);
  const wait = lockedFor(failures, now);
  if (wait > 0) throw new RateLimitedError('rate_limited', `Too many wrong codes: sign-in is locked for ${Math.ceil(wait / 60)} minutes.`, wait);
  let challenge;
  try {
    challenge = await checkCode(deps, { otpId: input.otpId, code: input.otp, scope: 'login', subject: email });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'otp_invalid') {
      await deps.otps.recordLoginFailure(key, OTP_LIMITS.failuresBeforeLock, now + OTP_LIMITS.lockMs);
    }
    throw error;
  }
  await consumeCode(deps, challenge);
  const customerId = challenge.customerId!;
  await deps.otps.resetLoginFailures(customerId);
  const identityToken = deps.ids.secret(IDENTITY_TOKEN_PREFIX);
  await deps.identityTokens.create({
    tokenHash: deps.hashing.hash(identityToken),
    customerId,
    deviceFingerprint: input.deviceFingerprint,
    createdAt: now,
    expiresAt: now + IDENTITY_TOKEN_LIFETIME_MS,
    revokedAt: null,
  });
  return { identityToken, licenses: await customerLicenses(deps, customerId, now) };
}

export async function customerLicenses(deps: Pick<Deps, 'licenses' | 'products'>, customerId: string, now: number): Promise<CustomerLicense[]> {
  const licenses = await deps.licenses.listByCustomer(customerId);
  const names = new Map<string, string>();
  for (const license of licenses) {
    if (!names.has(license.productId)) names.set(license.productId, (await deps.products.findById(license.productId))?.name ?? '');
  }
  return licenses.map((l) => ({
    id: l.id,
    productId: l.productId,
    productName: names.get(l.productId) ?? '',
    status: licenseStatus(l, now),
    features: l.features,
    issuedAt: l.issuedAt,
    expiresAt: l.expiresAt,
    licenseKey: l.licenseKey,
  }));
}
