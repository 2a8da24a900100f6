import type { MailMessage } from './mailer.ts';
import type { KeptMessageRepository } from './sms-outbox-repository.ts';

/** The sandbox's kept mail: what sandbox mode would have sent. */
export interface KeptMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: number;
}

export type SandboxMailRepository = KeptMessageRepository<KeptMail>;

/** A mail in the durable outbox. */
export interface QueuedMail extends Required<MailMessage> {
  kind: string;
  licenseId: string | null;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

/** A mail to queue, before any attempt (due at its createdAt). */
export type OutboxMail = Omit<QueuedMail, 'attempts' | 'nextAttemptAt'>;

export interface MailOutboxRepository {
  /** Queues a mail on its own (the changes that report themselves write theirs in their own transaction). */
  enqueue(mail: OutboxMail): Promise<void>;
  /**
   * Up to `limit` unsent mails due at `now`, each claimed by this sender until `now + leaseMs`
   * (attempts counted): no other sender takes them before then, and a crashed sender's come back after.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<QueuedMail[]>;
  markSent(id: string, at: number): Promise<void>;
  /** A failed attempt: tried again at `nextAttemptAt` (never again when null). */
  markFailed(id: string, error: string, nextAttemptAt: number | null): Promise<void>;
  /**
   * Gives a claimed mail back without counting the attempt (the relay was down, or it was never
   * tried): due again at `nextAttemptAt`; `error`, when given, is kept as its last error.
   */
  release(id: string, error: string | null, nextAttemptAt: number): Promise<void>;
  /** Mails not sent and not given up (read on each metrics scrape: one index-only read). */
  backlog(): Promise<{ unsent: number; oldestCreatedAt: number | null }>;
  /** Mails about a license queued since `since`, of the kinds given (the resend limit counts them). */
  countForLicense(licenseId: string, kinds: string[], since: number): Promise<number>;
  /** Retention: deletes up to `limit` mails sent (or given up) before `before`; returns how many. */
  deleteDoneBefore(before: number, limit: number): Promise<number>;
}
