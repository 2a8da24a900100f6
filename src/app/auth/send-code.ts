import { DomainError, RateLimitedError } from '../../domain/errors.ts';
import { OTP_LIMITS, SMS_LIMITS, sendRetryAfter, type OtpChallenge, type OtpScope } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';
import type { SmsSender } from '../../ports/sms-sender.ts';
import { lockedError, lockedSeconds } from './check-code.ts';

export type SendDeps = Pick<Deps, 'clock' | 'ids' | 'otps' | 'otpCodes' | 'sms' | 'rateLimiter'>;

export const SERVICE_NAME = 'Licensing';

/**
 * How long real sends take with each sender, as a moving average, for decoys to match. Until a
 * first send was measured, the sender's own estimate stands in: a decoy must not answer at once
 * while a real send waits on the provider.
 */
const typicalSendMs = new WeakMap<SmsSender, number>();
const typicalFor = (sms: SmsSender) => typicalSendMs.get(sms) ?? sms.expectedSendMs ?? 0;

const tooMany = (retryAfter: number) =>
  new RateLimitedError('rate_limited', `Too many codes were sent. Try again in ${retryAfter} seconds.`, retryAfter);

/**
 * Makes a challenge and texts its code, within the send limits: 3 per subject (e-mail or purchase)
 * per 15 minutes, and SMS_LIMITS per customer and per phone number across every kind of code.
 * `phone` null makes a decoy: the same answer, the same counting and waiting, nothing sent, no code
 * that can pass. `smsKey` names who the texts are counted against: the customer id by default;
 * sign-in passes the look-alike key of an unknown e-mail, so its decoys are limited like real sends.
 * `lockKey`: while this failure key is locked, nothing is sent (429 rate_limited); sign-in leaves it
 * out and sends a decoy instead, which does not tell a locked customer from an unknown e-mail.
 */
export async function sendCode(
  deps: SendDeps,
  input: { scope: OtpScope; subject: string; customerId: string | null; phone: string | null; purpose: string; smsKey?: string; lockKey?: string },
): Promise<OtpChallenge> {
  const locked = input.lockKey ? await lockedSeconds(deps, input.lockKey) : 0;
  if (locked > 0) throw lockedError(locked);
  const now = deps.clock.now();
  const recent = await deps.otps.sentSince(input.scope, input.subject, now - OTP_LIMITS.sendWindowMs);
  const retryAfter = sendRetryAfter(recent, now);
  if (retryAfter > 0) throw tooMany(retryAfter);
  await countText(deps, input.smsKey ?? input.customerId, input.phone);
  const id = deps.ids.next('otp');
  const code = deps.otpCodes.generate(OTP_LIMITS.digits);
  const challenge: OtpChallenge = {
    id,
    scope: input.scope,
    subject: input.subject,
    customerId: input.phone ? input.customerId : null,
    codeDigest: deps.otpCodes.digest(id, code),
    createdAt: now,
    expiresAt: now + OTP_LIMITS.lifetimeMs,
    attempts: 0,
    usedAt: null,
  };
  await deps.otps.create(challenge);
  if (!input.phone) {
    // Unknown e-mails must not answer faster than known ones: wait about as long as a send takes.
    await deps.clock.sleep(typicalFor(deps.sms));
    return challenge;
  }
  await text(deps, challenge, input.phone, `Your ${SERVICE_NAME} ${input.purpose} code is ${code}. It expires in 5 minutes. Never share it.`);
  return challenge;
}

/**
 * Counts one text against the customer and the phone in the shared rate limiter, shortest window
 * first, and stops at the first refusal (a refused send does not eat into the longer windows).
 * A decoy counts against a look-alike phone key, so it makes the same calls as a real send.
 */
async function countText(deps: Pick<SendDeps, 'otpCodes' | 'rateLimiter'>, who: string | null, phone: string | null): Promise<void> {
  const keys: string[] = [];
  if (who) keys.push(`sms:customer:${who}`);
  // Keyed, so the shared counters (Redis, PostgreSQL) never hold anything a phone number can be guessed back from.
  keys.push(phone ? `sms:phone:${deps.otpCodes.digest('sms-phone', phone.replace(/[^\d+]/g, ''))}` : `sms:phone:decoy:${who ?? ''}`);
  for (const { sends, windowMs } of SMS_LIMITS) {
    for (const key of keys) {
      const verdict = await deps.rateLimiter.hit(`${key}:${windowMs / 60_000}m`, sends, windowMs);
      if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
    }
  }
}

/** Sends the code; a code nobody received must not stay usable. */
async function text(deps: SendDeps, challenge: OtpChallenge, phone: string, body: string): Promise<void> {
  const started = deps.clock.now();
  try {
    await deps.sms.send(phone, body);
  } catch (error) {
    await deps.otps.discard(challenge.id, challenge.createdAt);
    if (error instanceof DomainError) throw error;
    throw new DomainError('sms_failed', 'The text message could not be sent.');
  }
  const took = deps.clock.now() - started;
  typicalSendMs.set(deps.sms, Math.min(2_000, 0.8 * typicalFor(deps.sms) + 0.2 * took));
}
