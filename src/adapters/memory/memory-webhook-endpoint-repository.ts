import type { WebhookEndpoint } from '../../domain/webhook-endpoint.ts';
import type { EndpointChanges, EndpointPage, WebhookEndpointRepository } from '../../ports/webhook-endpoint-repository.ts';

/** Endpoints in a map: the memory store has no triggers, so nothing is ever delivered to them. */
export class MemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly rows = new Map<string, WebhookEndpoint>();

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    if ([...this.rows.values()].filter((e) => e.developerId === endpoint.developerId).length >= max) return false;
    this.rows.set(endpoint.id, { ...endpoint });
    return true;
  }

  async get(developerId: string, id: string): Promise<WebhookEndpoint | null> {
    const row = this.rows.get(id);
    return row && row.developerId === developerId ? { ...row } : null;
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<EndpointPage> {
    const mine = [...this.rows.values()]
      .filter((e) => e.developerId === developerId)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const start = page.startingAfter ? mine.findIndex((e) => e.id === page.startingAfter) + 1 : 0;
    const rows = mine.slice(start, start + page.limit + 1);
    return { data: rows.slice(0, page.limit).map((e) => ({ ...e })), hasMore: rows.length > page.limit };
  }

  async update(developerId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    const row = await this.get(developerId, id);
    if (!row) return null;
    const updated = { ...row, ...changes };
    this.rows.set(id, updated);
    return { ...updated };
  }

  async delete(developerId: string, id: string): Promise<boolean> {
    return (await this.get(developerId, id)) !== null && this.rows.delete(id);
  }
}
