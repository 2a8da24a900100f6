import type { Product } from '../../domain/product.ts';
import type { ProductPage, ProductRepository } from '../../ports/product-repository.ts';
import { copy, copyOrNull, type MemoryTables, requireRow, requireUnique } from './memory-tables.ts';

/** Oldest first by (createdAt, id): the SQLite order and cursor. */
function compareOrder(a: Product, b: Product): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class MemoryProductRepository implements ProductRepository {
  constructor(private readonly tables: MemoryTables) {}

  async create(product: Product): Promise<void> {
    requireUnique(this.tables.products.has(product.id), 'products.id');
    requireRow(this.tables.developers, product.developerId, 'products.developer_id');
    this.tables.products.set(product.id, copy(product));
  }

  async get(developerId: string, id: string): Promise<Product | null> {
    return copyOrNull(this.owned(developerId, id));
  }

  async findById(id: string): Promise<Product | null> {
    return copyOrNull(this.tables.products.get(id));
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<ProductPage> {
    // An unknown cursor lists from the start, as the SQLite adapter does; the use case rejects it first.
    const cursor = page.startingAfter ? this.owned(developerId, page.startingAfter) : undefined;
    const rows = [...this.tables.products.values()]
      .filter((p) => p.developerId === developerId && (!cursor || compareOrder(p, cursor) > 0))
      .sort(compareOrder);
    return { data: rows.slice(0, Math.max(page.limit, 0)).map(copy), hasMore: rows.length > page.limit };
  }

  async update(product: Product): Promise<void> {
    const current = this.owned(product.developerId, product.id);
    if (!current) return;
    this.tables.products.set(product.id, { ...copy(product), createdAt: current.createdAt });
  }

  private owned(developerId: string, id: string): Product | undefined {
    const product = this.tables.products.get(id);
    return product?.developerId === developerId ? product : undefined;
  }
}
