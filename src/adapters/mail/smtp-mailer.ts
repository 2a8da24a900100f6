import { createTransport, type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from '../../ports/mailer.ts';

export interface SmtpMailerOptions {
  /** smtp:// or smtps://, credentials in the URL (SES, Postmark, Resend, Mailgun or any relay). */
  url: string;
  /** The From header, e.g. `Acme Licensing <licenses@acme.dev>`. */
  from: string;
  /** The host part of Message-IDs (the service's public host). */
  messageIdHost: string;
}

/** Mail over SMTP through nodemailer: one pooled connection, TLS as the URL says. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  readonly expectedSendMs = 300;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = createTransport(options.url, { from: options.from });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.id ? { messageId: `<${message.id}@${this.options.messageIdHost}>` } : {}),
    });
  }

  close(): void {
    this.transport.close();
  }
}
