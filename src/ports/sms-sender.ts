/** Text messages to phones. A failed send throws DomainError `sms_failed`. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}
