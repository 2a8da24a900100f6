import { sendDueMail } from '../../app/mail/send-mail.ts';
import type { Deps } from '../../ports/deps.ts';
import type { Logger } from './logger.ts';
import type { StoreHealth } from './store-health.ts';

export interface MailSender {
  /** No new round starts; resolves once the round under way has finished. */
  stop(): Promise<void>;
}

/**
 * Sends the outbox's mail in every instance: each round claims what it sends, so instances never
 * send the same mail together. Rounds follow each other at once while mail is waiting, then every
 * `everyMs`. A failed round is retried; the store being down is logged once per outage by `health`,
 * any other failure each time. A claim lasts `leaseMs`.
 */
export function startMailSender(deps: Pick<Deps, 'clock' | 'mailOutbox' | 'mailer'>, log: Logger, everyMs = 1_000, leaseMs?: number, health?: StoreHealth): MailSender {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  const round = async (): Promise<boolean> => {
    try {
      const result = await sendDueMail(deps, 20, leaseMs);
      for (const lost of result.givenUp) log.warn('mail given up after its last attempt', lost);
      if (result.failed > 0) log.warn('mail not sent; retried later', { failed: result.failed, sent: result.sent });
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
  };
}
