import type { Clock } from '../../ports/clock.ts';
import type { SandboxMailRepository } from '../../ports/mail-repository.ts';
import type { Mailer, MailMessage } from '../../ports/mailer.ts';

/** The mailer of sandbox mode: nothing is sent, every message is kept to be read back (GET /v1/sandbox/mail). */
export class KeptMailer implements Mailer {
  constructor(
    private readonly kept: SandboxMailRepository,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const { to, subject, text, html } = message;
    await this.kept.add({ to: to.toLowerCase(), subject, text, html, sentAt: this.clock.now() });
  }
}
