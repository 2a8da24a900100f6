import { ConflictError, DomainError, NotFoundError, RateLimitedError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import { TRIAL_CODE_LIMITS, type TrialRequest } from '../../domain/trial.ts';
import type { Deps } from '../../ports/deps.ts';
import { addressKey } from '../auth/login.ts';
import { checkCode, consumeCode, lockedError, lockedSeconds } from '../auth/check-code.ts';
import { countHits, sendCode } from '../auth/send-code.ts';
import { countFromAddress } from '../limits/address-limits.ts';
import { startOffered, trialOffer, type StartedTrial } from './start-trial.ts';

type RequestDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'signer' | 'signingKeys' | 'products' | 'trials' | 'trialRequests' | 'otps' | 'otpCodes' | 'sms' | 'mailer' | 'rateLimiter' | 'settings' | 'developers' | 'derivedSecrets'
>;

export interface TrialRequestInput {
  productId: string;
  email: string;
  machineFingerprint: string;
  name?: string | null;
  /** Where the request came from: counted per address, and with the e-mail for the code's send limit. */
  clientAddress: string;
}

/**
 * Failed codes are counted per e-mail and client address (attempts and locks), as sign-in's: guesses
 * spread over many requests for one e-mail still lock after OTP_LIMITS.failuresBeforeLock, but only
 * at the guesser's address, so an outsider's wrong codes never stop the owner from asking theirs.
 */
const lockKeyOf = (deps: Pick<Deps, 'hashing' | 'otpCodes'>, email: string, clientAddress: string) =>
  `trial:${deps.hashing.hash(email)}@${addressKey(deps, clientAddress)}`;

const tooMany = (seconds: number) => new RateLimitedError('rate_limited', `Too many codes were sent to this address. Try again in ${seconds} seconds.`, seconds);

/**
 * A trial asked for with a publishable key: checks what can be checked now (the client address's
 * limit, the e-mail, the product and its trial), records the request and e-mails its code. Nothing
 * else is stored: no customer, license or claim exists until the code comes back (confirmTrial).
 */
export async function requestTrial(deps: RequestDeps, developerId: string, input: TrialRequestInput): Promise<{ request: TrialRequest; expiresIn: number }> {
  await countFromAddress(deps, 'trial', input.clientAddress);
  const { email, product } = await trialOffer(deps, developerId, input);
  const locked = await lockedSeconds(deps, lockKeyOf(deps, email, input.clientAddress));
  if (locked > 0) throw lockedError(locked);
  await countCodeMail(deps, email, input.clientAddress);
  const now = deps.clock.now();
  const request: TrialRequest = {
    id: deps.ids.next('trq'),
    developerId,
    productId: product.id,
    email,
    machineFingerprint: input.machineFingerprint,
    name: input.name ?? null,
    createdAt: now,
    expiresAt: now + OTP_LIMITS.lifetimeMs,
    confirmedAt: null,
  };
  await deps.trialRequests.create(request);
  // The request's one challenge shares its id: POST /trials/confirm names only the request. A code
  // whose mail could not be sent is never usable (502 mail_failed).
  await sendCode(deps, { id: request.id, scope: 'trial', subject: request.id, customerId: null, to: { email }, purpose: 'free trial', counted: true });
  return { request, expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}

/** Every window of TRIAL_CODE_LIMITS must allow one more mail; the first refusal stops (the later windows are not eaten into). */
async function countCodeMail(deps: Pick<Deps, 'otpCodes' | 'rateLimiter'>, email: string, clientAddress: string): Promise<void> {
  // Keyed, so the shared counters never hold anything an address can be guessed back from.
  const who = deps.otpCodes.digest('trial-email', email);
  const hits = TRIAL_CODE_LIMITS.map(({ per, sends, windowMs }) => ({
    key: `${per === 'email' ? `trial-mail:${who}` : `trial-mail:${who}:${clientAddress}`}:${windowMs / 60_000}m`,
    sends,
    windowMs,
  }));
  await countHits(deps, hits, tooMany);
}

/**
 * POST /trials/confirm: the code e-mailed for the request starts the trial, exactly as a secret key
 * would have. Another seller's or an unknown request is not_found; a confirmed one is a conflict;
 * the code is checked with the OTP rules (attempts, locks, expiry). The request is confirmed by one
 * conditional update before the trial starts: of concurrent confirmations one starts the trial.
 */
export async function confirmTrial(deps: RequestDeps, developerId: string, input: { trialRequestId: string; otp: string; clientAddress: string }): Promise<StartedTrial> {
  const request = await deps.trialRequests.findById(input.trialRequestId);
  if (!request || request.developerId !== developerId) throw new NotFoundError('trial request');
  if (request.confirmedAt !== null) throw alreadyConfirmed();
  const lockKey = lockKeyOf(deps, request.email, input.clientAddress);
  const challenge = await checkCode(deps, { otpId: request.id, code: input.otp, scope: 'trial', subject: request.id, lockKey });
  const confirmed = await deps.trialRequests.confirm(request.id, deps.clock.now());
  if (!confirmed) {
    // Another confirmation got there first, or the request ran out between the check and the update.
    const current = await deps.trialRequests.findById(request.id);
    if (current?.confirmedAt != null) throw alreadyConfirmed();
    throw new DomainError('otp_expired', 'The code has expired: ask for a new one.');
  }
  await consumeCode(deps, challenge);
  // The product is asked again: it may have left sale, or stopped offering trials, since the request.
  const { email, product } = await trialOffer(deps, developerId, request);
  return startOffered(deps, product, { email, machineFingerprint: request.machineFingerprint, name: request.name });
}

const alreadyConfirmed = () => new ConflictError('conflict', 'This trial request was already confirmed: its trial has started (the key went to whoever confirmed it).');
