import { and, asc, eq } from 'drizzle-orm';
import type { WebhookEndpoint } from '../../../domain/webhook-endpoint.ts';
import type { EndpointPage, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

/** What each dialect writes itself: the changes, each in a transaction (creation counts under the dialect's lock). */
type DialectPart = 'create' | 'update' | 'delete';

/** What the two webhook-endpoint repositories share: the reads. */
export abstract class DrizzleWebhookEndpointRepository implements Omit<WebhookEndpointRepository, DialectPart> {
  constructor(private readonly store: SqlStore) {}

  async get(developerId: string, id: string): Promise<WebhookEndpoint | null> {
    const { db, tables: { webhookEndpoints } } = this.store;
    return oneOrNull(db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.developerId, developerId))));
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<EndpointPage> {
    const { db, tables: { webhookEndpoints }, dialect } = this.store;
    const cursor = page.startingAfter ? await this.get(developerId, page.startingAfter) : null;
    const after = cursor ? dialect.after(webhookEndpoints.createdAt, webhookEndpoints.id, cursor) : undefined;
    const rows = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.developerId, developerId), after))
      .orderBy(asc(webhookEndpoints.createdAt), asc(dialect.byteOrder(webhookEndpoints.id)))
      .limit(page.limit + 1);
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }
}
