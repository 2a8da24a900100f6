import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { Product } from '../../domain/product.ts';
import type { ProductPage, ProductRepository } from '../../ports/product-repository.ts';
import { products } from './schema.ts';
import type { SqliteDb } from './sqlite-store.ts';

export class SqliteProductRepository implements ProductRepository {
  constructor(private readonly db: SqliteDb) {}

  async create(product: Product): Promise<void> {
    this.db.insert(products).values(product).run();
  }

  async get(developerId: string, id: string): Promise<Product | null> {
    return (
      this.db
        .select()
        .from(products)
        .where(and(eq(products.id, id), eq(products.developerId, developerId)))
        .get() ?? null
    );
  }

  async findById(id: string): Promise<Product | null> {
    return this.db.select().from(products).where(eq(products.id, id)).get() ?? null;
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<ProductPage> {
    const cursor = page.startingAfter ? await this.get(developerId, page.startingAfter) : null;
    const after = cursor
      ? or(gt(products.createdAt, cursor.createdAt), and(eq(products.createdAt, cursor.createdAt), gt(products.id, cursor.id)))
      : undefined;
    const rows = this.db
      .select()
      .from(products)
      .where(and(eq(products.developerId, developerId), after))
      .orderBy(asc(products.createdAt), asc(products.id))
      .limit(page.limit + 1)
      .all();
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  async update(product: Product): Promise<void> {
    const { id, developerId, createdAt: _created, ...fields } = product;
    this.db
      .update(products)
      .set(fields)
      .where(and(eq(products.id, id), eq(products.developerId, developerId)))
      .run();
  }
}
