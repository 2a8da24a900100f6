import { normalizeEmail } from '../../domain/developer.ts';
import { DomainError, InvalidRequestError } from '../../domain/errors.ts';
import { IDENTITY_TOKEN_LIFETIME_MS, IDENTITY_TOKEN_PREFIX } from '../../domain/identity-token.ts';
import { licenseStatus, type License, type LicenseStatus } from '../../domain/license.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { decoyMaskedPhone, maskPhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode, consumeCode, lockedSeconds } from './check-code.ts';
import { sendCode } from './send-code.ts';

type LoginDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'otps' | 'otpCodes' | 'sms' | 'rateLimiter' | 'customers' | 'identityTokens' | 'licenses' | 'products'
>;

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
 * Attempts are counted per customer; an e-mail with no customer gets a key of its own under its
 * digest, so it locks exactly like a real one and gives nothing away.
 */
const failureKey = (deps: Pick<Deps, 'hashing'>, customerId: string | null, email: string) =>
  customerId ?? `email:${deps.hashing.hash(email)}`;

/** Texts a login code. An unknown e-mail answers exactly like a known one and sends nothing. */
export async function startLogin(deps: LoginDeps, input: { email: string }): Promise<CodeSent> {
  const email = loginEmail(input.email);
  const customer = await deps.customers.findByEmail(email);
  if (customer && !customer.phone) throw new DomainError('no_phone_on_file', 'There is no phone number on file for this e-mail: buy in the browser once to add one.');
  const key = failureKey(deps, customer?.id ?? null, email);
  // A locked customer is sent nothing, but hears what an unknown e-mail hears.
  const locked = (await lockedSeconds(deps, key)) > 0;
  const challenge = await sendCode(deps, {
    scope: 'login',
    subject: email,
    customerId: customer?.id ?? null,
    phone: customer && !locked ? customer.phone : null,
    smsKey: key,
    purpose: 'sign-in',
  });
  return {
    otpId: challenge.id,
    // Keyed by the server's secret: nobody can compute an unknown e-mail's decoy to compare.
    phoneMasked: customer?.phone ? maskPhone(customer.phone) : decoyMaskedPhone(deps.otpCodes.digest('decoy-phone', email)),
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
  const lockKey = failureKey(deps, customer?.id ?? null, email);
  const challenge = await checkCode(deps, { otpId: input.otpId, code: input.otp, scope: 'login', subject: email, lockKey });
  await consumeCode(deps, challenge);
  const customerId = challenge.customerId!;
  const now = deps.clock.now();
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
  return describeLicenses(deps, await deps.licenses.listByCustomer(customerId), now);
}

/** The customer's view of licenses already read: each product's name is looked up once. */
export async function describeLicenses(deps: Pick<Deps, 'products'>, licenses: License[], now: number): Promise<CustomerLicense[]> {
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
