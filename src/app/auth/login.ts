import { normalizeEmail } from '../../domain/developer.ts';
import { signInPhone } from '../../domain/customer.ts';
import { InvalidRequestError, RateLimitedError } from '../../domain/errors.ts';
import { IDENTITY_TOKEN_LIFETIME_MS, IDENTITY_TOKEN_PREFIX } from '../../domain/identity-token.ts';
import { licenseStatus, type License, type LicenseStatus } from '../../domain/license.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { decoyMaskedPhone, maskPhone } from '../../domain/phone.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode, consumeCode, lockedSeconds } from './check-code.ts';
import { countHits, sendCode, sendFloorMs, slowerChannel, type CodeDestination } from './send-code.ts';

type LoginDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'otps' | 'otpCodes' | 'sms' | 'mailer' | 'rateLimiter' | 'customers' | 'identityTokens' | 'licenses' | 'products'
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

export function loginEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!normalized) throw new InvalidRequestError('email is not a valid e-mail address.', 'email');
  return normalized;
}

/** Sign-in codes per e-mail: per client address (an outsider's floods stop only themselves), and a daily cap for cost. */
export const LOGIN_SEND_LIMITS = {
  perAddress: [
    { sends: OTP_LIMITS.sendsPerWindow, windowMs: OTP_LIMITS.sendWindowMs },
    { sends: 10, windowMs: 86_400_000 },
  ],
  perEmailPerDay: 50,
} as const;

/** The keyed digest of a client address: the shared counters never hold an address. */
export const addressKey = (deps: Pick<Deps, 'otpCodes'>, clientAddress: string) => deps.otpCodes.digest('client-address', clientAddress).slice(0, 24);

/**
 * Attempts are counted per customer and client address: an outsider's wrong codes lock only the
 * outsider's address. An e-mail with no customer gets a key of its own under its digest, so it
 * locks exactly like a real one and gives nothing away.
 */
export const failureKey = (deps: Pick<Deps, 'hashing' | 'otpCodes'>, customerId: string | null, email: string, clientAddress: string) =>
  `${customerId ?? `email:${deps.hashing.hash(email)}`}@${addressKey(deps, clientAddress)}`;

/**
 * Counts one sign-in start for this e-mail from this address: 429 past any limit, the same for every
 * e-mail. `kind` keeps buyer and seller (console) sign-ins apart.
 */
export async function countLoginStart(deps: Pick<Deps, 'rateLimiter' | 'hashing' | 'otpCodes'>, email: string, clientAddress: string, kind: 'login' | 'console-login' = 'login'): Promise<void> {
  const who = `${kind}:${deps.hashing.hash(email).slice(0, 32)}`;
  const limits = [
    ...LOGIN_SEND_LIMITS.perAddress.map(({ sends, windowMs }) => ({ key: `${who}:${addressKey(deps, clientAddress)}:${windowMs / 60_000}m`, sends, windowMs })),
    { key: `${who}:day`, sends: LOGIN_SEND_LIMITS.perEmailPerDay, windowMs: 86_400_000 },
  ];
  await countHits(deps, limits);
}

/**
 * Sends a sign-in code: by text to a customer's confirmed phone, by e-mail to any other customer
 * (and to a phoned one whose texts are used up, or where no SMS provider is configured), nowhere
 * for an unknown e-mail. The answer is the same for all three (docs/customers.md): the same fields,
 * a masked phone (the real one, or a keyed decoy that looks like one), and at least the same time.
 */
export async function startLogin(deps: LoginDeps, input: { email: string; clientAddress: string }): Promise<CodeSent> {
  const email = loginEmail(input.email);
  await countLoginStart(deps, email, input.clientAddress);
  const started = deps.clock.now();
  const customer = await deps.customers.findByEmail(email);
  const phone = deps.sms ? signInPhone(customer) : null;
  const key = failureKey(deps, customer?.id ?? null, email, input.clientAddress);
  // A locked customer is sent nothing, but hears what an unknown e-mail hears.
  const locked = (await lockedSeconds(deps, key)) > 0;
  let channel: 'sms' | 'email' | null = null;
  const send = (to: CodeDestination) => {
    channel = to === null ? null : 'sms' in to ? 'sms' : 'email';
    return sendCode(deps, { scope: 'login', subject: email, customerId: customer?.id ?? null, to, smsKey: customer ? `${customer.id}@${addressKey(deps, input.clientAddress)}` : key, purpose: 'sign-in', counted: true, padded: true });
  };
  let challenge;
  if (!customer || locked) challenge = await send(null);
  else if (phone) {
    try {
      challenge = await send({ sms: phone });
    } catch (error) {
      // The phone's texts are used up (someone else may be spending them): the e-mail proves the owner too.
      if (!(error instanceof RateLimitedError)) throw error;
      challenge = await send({ email });
    }
  } else challenge = await send({ email });
  await padToSendFloor(deps, started, channel);
  return {
    otpId: challenge.id,
    // Keyed by the server's secret: nobody can compute an unknown e-mail's decoy to compare.
    phoneMasked: phone ? maskPhone(phone) : decoyMaskedPhone(deps.otpCodes.digest('decoy-phone', email)),
    expiresIn: OTP_LIMITS.lifetimeMs / 1000,
  };
}

/**
 * An answer that did not wait on the slower channel waits as long as one of its recent sends did:
 * the same spread of times whoever asks (a send on that channel already took one such time).
 */
export async function padToSendFloor(deps: Pick<Deps, 'clock' | 'sms' | 'mailer'>, started: number, channel: 'sms' | 'email' | null): Promise<void> {
  if (channel === slowerChannel(deps)) return;
  const elapsed = deps.clock.now() - started;
  const floor = sendFloorMs(deps);
  if (elapsed < floor) await deps.clock.sleep(floor - elapsed);
}

/** Checks the code and returns an identity token bound to this device, with the customer's licenses. */
export async function verifyLogin(
  deps: LoginDeps,
  input: { email: string; otpId: string; otp: string; deviceFingerprint: string; clientAddress: string },
): Promise<{ identityToken: string; licenses: CustomerLicense[] }> {
  const email = loginEmail(input.email);
  const customer = await deps.customers.findByEmail(email);
  const lockKey = failureKey(deps, customer?.id ?? null, email, input.clientAddress);
  const challenge = await checkCode(deps, { otpId: input.otpId, code: input.otp, scope: 'login', subject: email, lockKey });
  await consumeCode(deps, challenge);
  return signedIn(deps, challenge.customerId!, input.deviceFingerprint);
}

/** A new identity token for a sign-in that proved the e-mail, bound to this device, and the customer's licenses. */
export async function signedIn(
  deps: Pick<Deps, 'clock' | 'ids' | 'hashing' | 'identityTokens' | 'licenses' | 'products'>,
  customerId: string,
  deviceFingerprint: string,
): Promise<{ identityToken: string; licenses: CustomerLicense[] }> {
  const now = deps.clock.now();
  const identityToken = deps.ids.secret(IDENTITY_TOKEN_PREFIX);
  await deps.identityTokens.create({
    tokenHash: deps.hashing.hash(identityToken),
    customerId,
    deviceFingerprint,
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
