/** One e-mail: a plain-text part and an HTML part with the same content. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Stable across retries (the outbox row's id): sent as the Message-ID, so a mail sent again after
   * a crash between the relay's acceptance and our record of it is recognised as the same one.
   */
  id?: string;
}

/** E-mail out: SMTP when SMTP_URL is set, else the sandbox keeps every message. A failed send throws. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Milliseconds a send usually takes, before any was measured (decoy sign-ins wait about as long). */
  readonly expectedSendMs?: number;
}
