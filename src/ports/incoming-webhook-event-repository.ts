export interface IncomingWebhookEventRepository {
  /** Claims an event id for processing: true the first time only, also under concurrent deliveries. */
  claim(eventId: string, type: string, at: number): Promise<boolean>;
  /** Processing failed: the next delivery of the event may claim it again. */
  release(eventId: string): Promise<void>;
  /** The retention sweep: deletes at most `limit` events received before `before`; how many went. */
  deleteReceivedBefore(before: number, limit: number): Promise<number>;
}
