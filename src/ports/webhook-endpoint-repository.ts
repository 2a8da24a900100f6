import type { WebhookEndpoint } from '../domain/webhook-endpoint.ts';
import type { Page } from './page.ts';

export type EndpointPage = Page<WebhookEndpoint>;

/** What a change may set; `updatedAt` always. */
export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'events' | 'enabled' | 'disabledReason' | 'failingSince' | 'sealedSecret'>> & {
  updatedAt: number;
};

/** A seller's webhook endpoints. Every read and write is scoped by the seller: another's id is none. */
export interface WebhookEndpointRepository {
  /** Inserts it unless the seller already has `max` endpoints (checked by the store, also under concurrency): false then. */
  create(endpoint: WebhookEndpoint, max: number): Promise<boolean>;
  get(developerId: string, id: string): Promise<WebhookEndpoint | null>;
  /** Oldest first; `startingAfter` is an endpoint id of the seller. */
  list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<EndpointPage>;
  /**
   * Applies the changes; turning it off also gives up its pending deliveries (failed, redeliverable
   * from the log) in the same transaction. The endpoint as stored afterwards; null when none.
   */
  update(developerId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null>;
  /** Removes it with its deliveries and their attempts; false when none. */
  delete(developerId: string, id: string): Promise<boolean>;
}
