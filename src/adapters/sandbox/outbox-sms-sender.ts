import type { Clock } from '../../ports/clock.ts';
import type { SmsOutboxRepository } from '../../ports/sms-outbox-repository.ts';
import type { SmsSender } from '../../ports/sms-sender.ts';

/** The SMS sender of sandbox mode: nothing is sent, every message is kept in the outbox to be read back. */
export class OutboxSmsSender implements SmsSender {
  constructor(
    private readonly outbox: SmsOutboxRepository,
    private readonly clock: Clock,
  ) {}

  async send(to: string, body: string): Promise<void> {
    await this.outbox.add({ to, body, sentAt: this.clock.now() });
  }
}
