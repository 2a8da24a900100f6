import { DomainError, RateLimitedError } from '../../domain/errors.ts';
import { OTP_LIMITS, sendRetryAfter, type OtpChallenge, type OtpScope } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';

export type SendDeps = Pick<Deps, 'clock' | 'ids' | 'otps' | 'otpCodes' | 'sms'>;

export const SERVICE_NAME = 'Licensing';

/** A moving average of how long real sends take in this process, for decoys to match. */
let typicalSendMs = 0;

/**
 * Makes a challenge and texts its code, within the send limit of its subject (3 per 15 minutes).
 * `phone` null makes a decoy: the same answer, nothing sent, no code that can pass.
 */
export async function sendCode(
  deps: SendDeps,
  input: { scope: OtpScope; subject: string; customerId: string | null; phone: string | null; purpose: string },
): Promise<OtpChallenge> {
  const now = deps.clock.now();
  const recent = await deps.otps.sentSince(input.scope, input.subject, now - OTP_LIMITS.sendWindowMs);
  const retryAfter = sendRetryAfter(recent, now);
  if (retryAfter > 0) throw new RateLimitedError('rate_limited', `Too many codes were sent. Try again in ${retryAfter} seconds.`, retryAfter);
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
    await deps.clock.sleep(typicalSendMs);
    return challenge;
  }
  const started = deps.clock.now();
  try {
    await deps.sms.send(input.phone, `Your ${SERVICE_NAME} ${input.purpose} code is ${code}. It expires in 5 minutes. Never share it.`);
  } catch (error) {
    // A code nobody received must not stay usable.
    await deps.otps.discard(id, now);
    if (error instanceof DomainError) throw error;
    throw new DomainError('sms_failed', 'The text message could not be sent.');
  }
  typicalSendMs = Math.min(2_000, 0.8 * typicalSendMs + 0.2 * (deps.clock.now() - started));
  return challenge;
}
