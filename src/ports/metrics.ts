/** The counts use cases report for the operators' metrics page (GET /metrics, docs/operating.md). */
export interface Metrics {
  /** One answered license validation: `valid`, or the reason it was invalid. */
  validation(verdict: string): void;
  /** One sign-in or confirmation code handed to its channel. */
  codeSent(channel: 'sms' | 'email'): void;
}
