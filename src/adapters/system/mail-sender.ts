import { sendDueMail, type MailRound } from '../../app/mail/send-mail.ts';
import { RelayCircuit } from '../../app/mail/relay-circuit.ts';
import type { Deps } from '../../ports/deps.ts';
import type { Logger } from './logger.ts';
import type { StoreHealth } from './store-health.ts';

export interface MailSender {
  /** No new round starts; resolves once the round under way has finished. */
  stop(): Promise<void>;
  /** True while this process holds the relay for down (it probes it, one mail per interval). */
  relayDown(): boolean;
}

export interface MailSenderOptions {
  /** Between rounds when nothing more is due. */
  everyMs?: number;
  /** How long a claim lasts (settings.mailLeaseMs). */
  leaseMs?: number;
  /** While the relay is down, one mail is tried this often (settings.mailRelayProbeMs). */
  probeMs?: number;
  /** Reports a round that failed on the store to the outage already logged once (not once a round). */
  health?: StoreHealth;
}

/**
 * Sends the outbox's mail in every instance: each round claims what it sends, so instances never
 * send the same mail together. Rounds follow each other at once while mail is waiting, then every
 * `everyMs`. A failed round is retried; the store being down is logged once per outage by `health`,
 * any other failure each time. A claim lasts `leaseMs`. The relay going down and coming back is logged once each, not at every probe.
 */
export function startMailSender(deps: Pick<Deps, 'clock' | 'mailOutbox' | 'mailer'> & Partial<Pick<Deps, 'metrics'>>, log: Logger, options: MailSenderOptions = {}): MailSender {
  const { everyMs = 1_000, leaseMs, probeMs, health } = options;
  const relay = new RelayCircuit(probeMs);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  const round = async (): Promise<boolean> => {
    const wasDown = relay.down;
    try {
      const result = await sendDueMail(deps, { relay, limit: 20, leaseMs });
      report(log, result, wasDown, relay.down);
      return result.full;
    } catch (error) {
      if (health?.tookStoreFailure(error)) return false;
      log.warn('mail round failed; retried', { error: String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200) });
      return false;
    }
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().then((more) => schedule(more ? 0 : everyMs));
    }, delayMs);
    timer.unref?.();
  };
  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    relayDown: () => relay.down,
  };
}

function report(log: Logger, result: MailRound, wasDown: boolean, down: boolean): void {
  for (const lost of result.givenUp) log.warn('mail given up after its last attempt', lost);
  if (result.failed > 0) log.warn('mail not sent; retried later', { failed: result.failed, sent: result.sent });
  if (!wasDown && down) log.warn('mail relay down; mail waits and one is tried per interval', { error: result.relayError });
  if (wasDown && !down) log.info('mail relay back; sending the waiting mail', { sent: result.sent });
}
