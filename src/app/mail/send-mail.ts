import { DEFAULT_SETTINGS } from '../../domain/settings.ts';
import type { Deps } from '../../ports/deps.ts';
import type { QueuedMail } from '../../ports/mail-repository.ts';
import { RelayCircuit, relayDown } from './relay-circuit.ts';

/** Waits after the 1st, 2nd, … failed attempt; after the last, the mail is given up (and logged). */
export const MAIL_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
/**
 * A mail the relay has not taken this long after it was queued is given up even while the relay is
 * down (its outage counts no attempts): the span of the retry schedule, about 14.6 hours.
 */
export const MAIL_GIVE_UP_MS = MAIL_RETRY_MS.reduce((sum, wait) => sum + wait, 0);
/** A claimed mail is another sender's again after this, by default (settings.mailLeaseMs, MAIL_LEASE_SECONDS). */
export const MAIL_LEASE_MS = DEFAULT_SETTINGS.mailLeaseMs;

export interface MailRound {
  sent: number;
  /** Attempts that failed for the mail itself (retried on its own schedule, or given up). */
  failed: number;
  /** Mails given back uncounted because the relay was down. */
  deferred: number;
  /** Mails given up on this round (their last attempt failed). */
  givenUp: { id: string; kind: string; error: string }[];
  /** The relay's error, when this round found it down. */
  relayError: string | null;
  /** True when the round took as many as it could: more may be due. */
  full: boolean;
}

export interface SendOptions {
  /** The sender's view of the relay, kept across rounds; without one, each call starts with the relay up. */
  relay?: RelayCircuit;
  limit?: number;
  leaseMs?: number;
}

type SendDeps = Pick<Deps, 'clock' | 'mailOutbox' | 'mailer'> & Partial<Pick<Deps, 'metrics'>>;

/**
 * Sends the outbox's due mail once. Each mail is claimed (for `leaseMs`) before it is sent and
 * marked sent right after: a crash between the two sends it once more when the lease ends, with the
 * same Message-ID, so at most one copy per crash and none lost. While `relay` is down, a round
 * claims one mail (the probe) once per interval, or nothing; the first relay-level failure of a
 * round gives the rest of its mails back untried.
 */
export async function sendDueMail(deps: SendDeps, { relay = new RelayCircuit(), limit = 20, leaseMs = MAIL_LEASE_MS }: SendOptions = {}): Promise<MailRound> {
  const round: MailRound = { sent: 0, failed: 0, deferred: 0, givenUp: [], relayError: null, full: false };
  const room = relay.allowance(deps.clock.now(), limit);
  if (room === 0) return round;
  const claimed = await deps.mailOutbox.claimDue(deps.clock.now(), room, leaseMs);
  round.full = claimed.length === room;
  for (const [i, mail] of claimed.entries()) {
    await attempt(deps, relay, mail, round);
    if (round.relayError === null) continue;
    for (const untried of claimed.slice(i + 1)) await deps.mailOutbox.release(untried.id, null, deps.clock.now());
    round.deferred += claimed.length - i - 1;
    round.full = false;
    break;
  }
  return round;
}

/** One mail's attempt, its outcome recorded in the store, the round and the relay's state. */
async function attempt(deps: SendDeps, relay: RelayCircuit, mail: QueuedMail, round: MailRound): Promise<void> {
  const count = deps.metrics?.mail?.bind(deps.metrics) ?? (() => undefined);
  try {
    await deps.mailer.send({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    await deps.mailOutbox.markSent(mail.id, deps.clock.now());
    relay.succeeded();
    round.sent++;
    count('sent');
    return;
  } catch (error) {
    const message = String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 300);
    const now = deps.clock.now();
    if (relayDown(error)) {
      relay.failed(now);
      round.relayError = message;
      if (now - mail.createdAt < MAIL_GIVE_UP_MS) {
        // Not this mail's fault: no attempt counted, due again as soon as the relay takes mail.
        await deps.mailOutbox.release(mail.id, message, now);
        round.deferred++;
        count('relay_down');
        return;
      }
    }
    const wait = relayDown(error) ? undefined : MAIL_RETRY_MS[mail.attempts - 1];
    await deps.mailOutbox.markFailed(mail.id, message, wait === undefined ? null : now + wait);
    round.failed++;
    if (wait !== undefined) return count('retrying');
    round.givenUp.push({ id: mail.id, kind: mail.kind, error: message });
    count('given_up');
  }
}
