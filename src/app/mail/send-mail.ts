import { DEFAULT_SETTINGS } from '../../domain/settings.ts';
import type { Deps } from '../../ports/deps.ts';

/** Waits after the 1st, 2nd, … failed attempt; after the last, the mail is given up (and logged). */
export const MAIL_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
/** A claimed mail is another sender's again after this, by default (settings.mailLeaseMs, MAIL_LEASE_SECONDS). */
export const MAIL_LEASE_MS = DEFAULT_SETTINGS.mailLeaseMs;

export interface MailRound {
  sent: number;
  failed: number;
  /** Mails given up on this round (their last attempt failed). */
  givenUp: { id: string; kind: string; error: string }[];
  /** True when the round took as many as it could: more may be due. */
  full: boolean;
}

/**
 * Sends the outbox's due mail once. Each mail is claimed (for `leaseMs`) before it is sent and
 * marked sent right after: a crash between the two sends it once more when the lease ends, with the
 * same Message-ID, so at most one copy per crash and none lost.
 */
export async function sendDueMail(deps: Pick<Deps, 'clock' | 'mailOutbox' | 'mailer'>, limit = 20, leaseMs = MAIL_LEASE_MS): Promise<MailRound> {
  const claimed = await deps.mailOutbox.claimDue(deps.clock.now(), limit, leaseMs);
  const round: MailRound = { sent: 0, failed: 0, givenUp: [], full: claimed.length === limit };
  for (const mail of claimed) {
    try {
      await deps.mailer.send({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      await deps.mailOutbox.markSent(mail.id, deps.clock.now());
      round.sent++;
    } catch (error) {
      const message = String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 300);
      const wait = MAIL_RETRY_MS[mail.attempts - 1];
      await deps.mailOutbox.markFailed(mail.id, message, wait === undefined ? null : deps.clock.now() + wait);
      round.failed++;
      if (wait === undefined) round.givenUp.push({ id: mail.id, kind: mail.kind, error: message });
    }
  }
  return round;
}
