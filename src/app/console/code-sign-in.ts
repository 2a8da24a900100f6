import { DomainError } from '../../domain/errors.ts';
import { OTP_LIMITS } from '../../domain/otp-challenge.ts';
import type { Deps } from '../../ports/deps.ts';
import { checkCode, consumeCode, lockedSeconds } from '../auth/check-code.ts';
import { addressKey, countLoginStart, loginEmail, padToSendFloor } from '../auth/login.ts';
import { sendCode } from '../auth/send-code.ts';
import { openSession, type SignInContext, type SignedInView } from './sessions.ts';

type CodeSignInDeps = Pick<
  Deps,
  'clock' | 'ids' | 'hashing' | 'otps' | 'otpCodes' | 'sms' | 'mailer' | 'rateLimiter' | 'developers' | 'consoleSessions'
>;

/**
 * Who a console code is for: the seller's id, or for an e-mail with no account a keyed digest of it
 * (a decoy: it is sent nowhere, and no developer has that id).
 */
const subjectOf = (deps: Pick<Deps, 'otpCodes'>, developerId: string | null, email: string) =>
  developerId ?? `email:${deps.otpCodes.digest('console-decoy', email)}`;

/** Wrong codes count per account (or decoy) and client address: an outsider's guesses lock only their address. */
const lockKeyOf = (deps: Pick<Deps, 'otpCodes'>, subject: string, clientAddress: string) => `console:${subject}@${addressKey(deps, clientAddress)}`;

/**
 * POST /developers/login: e-mails a sign-in code to the account with this address. Every e-mail
 * hears the same (the login id, at least as late as a real send): no account, a locked account and
 * a real one are alike; only the real one gets mail. Limits: those of buyer sign-in (codes per e-mail
 * and address, per e-mail per day).
 */
export async function startConsoleLogin(deps: CodeSignInDeps, input: { email: string; clientAddress: string }): Promise<{ loginId: string; expiresIn: number }> {
  const email = loginEmail(input.email);
  await countLoginStart(deps, email, input.clientAddress, 'console-login');
  const started = deps.clock.now();
  const developer = await deps.developers.findByEmail(email);
  const subject = subjectOf(deps, developer?.id ?? null, email);
  const locked = (await lockedSeconds(deps, lockKeyOf(deps, subject, input.clientAddress))) > 0;
  const to = developer && !locked ? { email: developer.email } : null;
  const challenge = await sendCode(deps, { scope: 'console', subject, customerId: null, to, purpose: 'console sign-in', counted: true, padded: true, mailOnly: true });
  await padToSendFloor(deps, started, to ? 'email' : null);
  return { loginId: challenge.id, expiresIn: OTP_LIMITS.lifetimeMs / 1000 };
}

/** POST /developers/login/verify: the code, checked as buyer codes are (tries, locks, used once), opens a session. */
export async function verifyConsoleLogin(
  deps: CodeSignInDeps,
  input: { loginId: string; code: string } & SignInContext,
): Promise<{ token: string; view: SignedInView }> {
  const challenge = await checkCode(deps, {
    otpId: input.loginId,
    code: input.code,
    scope: 'console',
    lockKey: (c) => lockKeyOf(deps, c.subject, input.clientAddress),
  });
  await consumeCode(deps, challenge);
  const developer = await deps.developers.findById(challenge.subject);
  if (!developer) throw new DomainError('otp_invalid', 'The code is not right.');
  return openSession(deps, developer.id, 'email', input);
}
