/** Text messages to phones. A failed send throws DomainError `sms_failed`. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
  /**
   * Milliseconds a send usually takes, before any was measured: sign-in for an unknown e-mail waits
   * about this long, so that even the first answer after a start does not tell it from a real send.
   */
  readonly expectedSendMs?: number;
}
