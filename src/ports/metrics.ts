/** The counts use cases report for the operators' metrics page (GET /metrics, docs/operating.md). */
export interface Metrics {
  /** One answered license validation: `valid`, or the reason it was invalid. */
  validation(verdict: string): void;
  /** One sign-in or confirmation code handed to its channel. */
  codeSent(channel: 'sms' | 'email'): void;
  /**
   * One outbox mail's attempt: `sent`; `retrying` (failed, tried again on its schedule);
   * `relay_down` (the relay took no mail: given back, not counted); `given_up` (its last failed).
   */
  mail?(outcome: MailOutcome): void;
}

export type MailOutcome = 'sent' | 'retrying' | 'relay_down' | 'given_up';
