import { DomainError, RateLimitedError } from '../../domain/errors.ts';
import { OTP_LIMITS, SMS_LIMITS, sendRetryAfter, type OtpChallenge, type OtpScope } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';
import { codeMail } from '../mail/mail-layout.ts';
import { lockedError, lockedSeconds } from './check-code.ts';

export type SendDeps = Pick<Deps, 'clock' | 'ids' | 'otps' | 'otpCodes' | 'sms' | 'mailer' | 'rateLimiter'> & Partial<Pick<Deps, 'metrics'>>;

export const SERVICE_NAME = 'Licensing';

/** Where a code goes: a text to a phone, a mail to an address, or nowhere (a decoy). */
export type CodeDestination = { sms: string } | { email: string } | null;

/**
 * How long real sends take on each channel: a moving average, and the latest real send times. Until
 * a first send was measured, the sender's own estimate stands in: a decoy must not answer at once
 * while a real send waits on the provider.
 */
const typicalSendMs = new WeakMap<object, number>();
const recentSendMs = new WeakMap<object, number[]>();
const RECENT_SENDS = 64;
const typicalFor = (sender: { expectedSendMs?: number } | null) => (sender ? (typicalSendMs.get(sender) ?? sender.expectedSendMs ?? 0) : 0);

function recordSend(sender: object, tookMs: number): void {
  const took = Math.min(2_000, tookMs);
  typicalSendMs.set(sender, 0.8 * typicalFor(sender) + 0.2 * took);
  const recent = recentSendMs.get(sender) ?? [];
  recent.push(took);
  if (recent.length > RECENT_SENDS) recent.shift();
  recentSendMs.set(sender, recent);
}

/** The channel whose sends usually take longer (null: neither sends). */
export function slowerChannel(deps: Pick<SendDeps, 'sms' | 'mailer'>): 'sms' | 'email' | null {
  if (!deps.sms && !deps.mailer) return null;
  return deps.sms && typicalFor(deps.sms) >= typicalFor(deps.mailer) ? 'sms' : 'email';
}

/**
 * How long an answer that did not send on the slower channel waits in all: one of that channel's
 * recent real send times, drawn at random, so padded answers take the same spread of times as real
 * sends, not just their average (bench/sign-in-timing.ts measures it). Before any real send, the
 * typical time.
 */
export function sendFloorMs(deps: Pick<SendDeps, 'sms' | 'mailer'>): number {
  const channel = slowerChannel(deps);
  const sender = channel === 'sms' ? deps.sms : channel === 'email' ? deps.mailer : null;
  if (!sender) return 0;
  const recent = recentSendMs.get(sender);
  return recent?.length ? recent[Math.floor(Math.random() * recent.length)]! : Math.ceil(typicalFor(sender));
}

const tooMany = (retryAfter: number) =>
  new RateLimitedError('rate_limited', `Too many codes were sent. Try again in ${retryAfter} seconds.`, retryAfter);

/**
 * Hits on the shared counters, in order: the first refusal stops (a refused send does not eat into
 * the later windows) and is 429 rate_limited with its Retry-After.
 */
export async function countHits(
  deps: Pick<SendDeps, 'rateLimiter'>,
  hits: readonly { key: string; sends: number; windowMs: number }[],
  refusal: (retryAfter: number) => RateLimitedError = tooMany,
): Promise<void> {
  for (const { key, sends, windowMs } of hits) {
    const verdict = await deps.rateLimiter.hit(key, sends, windowMs);
    if (!verdict.allowed) throw refusal(verdict.retryAfterSeconds);
  }
}

/**
 * Makes a challenge and sends its code (by text or by mail), within the send limits: 3 per subject
 * (e-mail or purchase) per 15 minutes unless the caller counted its own (`counted`), and SMS_LIMITS
 * per customer and per phone number across every kind of text. `to` null makes a decoy: the same
 * answer, the same counting and waiting, nothing sent, no code that can pass. `smsKey` names who
 * texts are counted against (the customer id by default). `id`: the challenge's id, when the caller
 * names it (a trial request's one challenge shares the request's). `lockKey`: while this failure key is
 * locked, nothing is sent (429 rate_limited); sign-in leaves it out and sends a decoy instead.
 * `padded`: the caller makes its whole answer last as long as a send (sendFloorMs); a decoy then
 * does not wait on its own. `mailOnly`: this kind of code is never texted, so its decoys count no text.
 */
export async function sendCode(
  deps: SendDeps,
  input: { scope: OtpScope; subject: string; customerId: string | null; to: CodeDestination; purpose: string; smsKey?: string; lockKey?: string; counted?: boolean; id?: string; padded?: boolean; mailOnly?: boolean },
): Promise<OtpChallenge> {
  const locked = input.lockKey ? await lockedSeconds(deps, input.lockKey) : 0;
  if (locked > 0) throw lockedError(locked);
  const now = deps.clock.now();
  if (!input.counted) {
    const recent = await deps.otps.sentSince(input.scope, input.subject, now - OTP_LIMITS.sendWindowMs);
    const retryAfter = sendRetryAfter(recent, now);
    if (retryAfter > 0) throw tooMany(retryAfter);
  }
  const to = input.to;
  // A decoy counts like a text unless the code only ever goes by mail (`mailOnly`): then like a mail, not at all.
  if (to === null ? !input.mailOnly : 'sms' in to) await countText(deps, input.smsKey ?? input.customerId, to && 'sms' in to ? to.sms : null);
  const id = input.id ?? deps.ids.next('otp');
  const code = deps.otpCodes.generate(OTP_LIMITS.digits);
  const challenge: OtpChallenge = {
    id,
    scope: input.scope,
    subject: input.subject,
    customerId: to ? input.customerId : null,
    codeDigest: deps.otpCodes.digest(id, code),
    createdAt: now,
    expiresAt: now + OTP_LIMITS.lifetimeMs,
    attempts: 0,
    usedAt: null,
  };
  await deps.otps.create(challenge);
  if (!to) {
    // Unknown e-mails must not answer faster than known ones: wait about as long as a send takes
    // (unless the caller pads its whole answer itself).
    if (!input.padded) await deps.clock.sleep(sendFloorMs(deps));
    return challenge;
  }
  await deliver(deps, challenge, to, code, input.purpose);
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
  await countHits(deps, SMS_LIMITS.flatMap(({ sends, windowMs }) => keys.map((key) => ({ key: `${key}:${windowMs / 60_000}m`, sends, windowMs }))));
}

/** Sends the code; a code nobody received must not stay usable. */
async function deliver(deps: SendDeps, challenge: OtpChallenge, to: NonNullable<CodeDestination>, code: string, purpose: string): Promise<void> {
  const started = deps.clock.now();
  const sender = 'sms' in to ? deps.sms : deps.mailer;
  try {
    if ('sms' in to) {
      if (!deps.sms) throw new DomainError('sms_failed', 'This service sends no text messages.');
      await deps.sms.send(to.sms, `Your ${SERVICE_NAME} ${purpose} code is ${code}. It expires in 5 minutes. Never share it.`);
    } else {
      await deps.mailer.send(codeMail({ to: to.email, service: SERVICE_NAME, purpose, code, minutes: OTP_LIMITS.lifetimeMs / 60_000 }));
    }
  } catch (error) {
    await deps.otps.discard(challenge.id, challenge.createdAt);
    if (error instanceof DomainError) throw error;
    throw 'sms' in to
      ? new DomainError('sms_failed', 'The text message could not be sent.')
      : new DomainError('mail_failed', 'The e-mail with the code could not be sent: try again later.');
  }
  if (sender) recordSend(sender, deps.clock.now() - started);
  deps.metrics?.codeSent('sms' in to ? 'sms' : 'email');
}
