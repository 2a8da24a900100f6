import { createTransport, type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type { Mailer, MailMessage } from '../../ports/mailer.ts';

export interface SmtpMailerOptions {
  /** smtp:// or smtps://, credentials in the URL (SES, Postmark, Resend, Mailgun or any relay). */
  url: string;
  /** The From header, e.g. `Acme Licensing <licenses@acme.dev>`. */
  from: string;
  /** The host part of Message-IDs (the service's public host). */
  messageIdHost: string;
}

/**
 * Whether nodemailer's error says the relay cannot take any mail now (docs/mail.md, "When the relay
 * is down"): no connection or a timeout, its login refused, 421, or any 4xx outside the recipient
 * (greeting, MAIL FROM, DATA). A 4xx or 5xx for the recipient, or a message it cannot build, is this
 * mail's own failure.
 */
export function isRelayLevel(error: { code?: string; command?: string; responseCode?: number }): boolean {
  const code = error.responseCode;
  if (code === undefined) return error.code !== 'EENVELOPE' && error.code !== 'EMESSAGE';
  if (error.code === 'EAUTH' || code === 421) return true;
  return code >= 400 && code < 500 && !String(error.command ?? '').startsWith('RCPT');
}

/** Mail over SMTP through nodemailer: a connection per send, TLS as the URL says. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  readonly expectedSendMs = 300;

  constructor(private readonly options: SmtpMailerOptions) {
    // A relay that does not answer is down: known within seconds, not nodemailer's minutes.
    // (The URL's own ?connectionTimeout= still wins.)
    const fromUrl = parseConnectionUrl(options.url);
    this.transport = createTransport({ connectionTimeout: 10_000, greetingTimeout: 10_000, ...fromUrl }, { from: options.from });
  }

  /** Throws what nodemailer threw, marked `relayDown` when the relay, not this mail, failed. */
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.id ? { messageId: `<${message.id}@${this.options.messageIdHost}>` } : {}),
    }).catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      throw Object.assign(failure, { relayDown: isRelayLevel(failure as never) });
    });
  }

  close(): void {
    this.transport.close();
  }
}
