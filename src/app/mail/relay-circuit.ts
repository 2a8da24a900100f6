import { DEFAULT_SETTINGS } from '../../domain/settings.ts';

/** While the relay is down, one mail is tried this often per process, by default (settings.mailRelayProbeMs). */
export const MAIL_PROBE_MS = DEFAULT_SETTINGS.mailRelayProbeMs;

/**
 * Whether a failed send says the relay itself cannot take mail now (the mailer marks such errors
 * `relayDown`: no connection, a timeout, a 4xx outside the recipient), rather than this one mail.
 */
export function relayDown(error: unknown): boolean {
  return (error as { relayDown?: unknown } | null)?.relayDown === true;
}

/**
 * The relay's state as one sender (process) sees it. Up: rounds claim all they may. Down (a send
 * failed for a relay-level reason): rounds claim nothing, except one mail, the probe, every
 * `probeEveryMs`; the first send that succeeds puts it up again, and with it every waiting mail.
 * So a relay that is down sees one connection per interval from each process, and one that comes
 * back gets the whole backlog within an interval, whatever each mail's own retry schedule says.
 */
export class RelayCircuit {
  private downSince: number | null = null;
  private nextProbeAt = 0;

  constructor(private readonly probeEveryMs = MAIL_PROBE_MS) {}

  get down(): boolean {
    return this.downSince !== null;
  }

  /** How many mails a round may claim at `now`: `limit` while up, 1 when a probe is due, else 0. */
  allowance(now: number, limit: number): number {
    if (this.downSince === null) return limit;
    return now >= this.nextProbeAt ? 1 : 0;
  }

  /** A send failed for a relay-level reason at `now`: down (still), the next probe an interval on. */
  failed(now: number): void {
    this.downSince ??= now;
    this.nextProbeAt = now + this.probeEveryMs;
  }

  /** A send went through: the relay is up. */
  succeeded(): void {
    this.downSince = null;
  }
}
