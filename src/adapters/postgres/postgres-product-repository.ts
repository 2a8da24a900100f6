import { and, asc, eq, sql } from 'drizzle-orm';
import type { Product } from '../../domain/product.ts';
import type { ProductPage, ProductRepository } from '../../ports/product-repository.ts';
import { products } from './schema.ts';
import type { PostgresDb } from './postgres-store.ts';

/** Ids compare bytewise, as in SQLite, whatever the database's default collation (the index uses it too). */
const idBytewise = sql`${products.id} COLLATE "C"`;

export class PostgresProductRepository implements ProductRepository {
  constructor(private readonly db: PostgresDb) {}

  async create(product: Product): Promise<void> {
    await this.db.insert(products).values(product);
  }

  async get(developerId: string, id: string): Promise<Product | null> {
    const [row] = await this.db
      .select()
      .from(products)
      .where(and(eq(products.id, id), eq(products.developerId, developerId)));
    return row ?? null;
  }

  async findById(id: string): Promise<Product | null> {
    const [row] = await this.db.select().from(products).where(eq(products.id, id));
    return row ?? null;
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<ProductPage> {
    const cursor = page.startingAfter ? await this.get(developerId, page.startingAfter) : null;
    const after = cursor ? sql`(${products.createdAt}, ${idBytewise}) > (${cursor.createdAt}, ${cursor.id})` : undefined;
    const rows = await this.db
      .select()
      .from(products)
      .where(and(eq(products.developerId, developerId), after))
      .orderBy(asc(products.createdAt), asc(idBytewise))
      .limit(page.limit + 1);
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  async update(product: Product): Promise<void> {
    const { id, developerId, createdAt: _created, ...fields } = product;
    await this.db
      .update(products)
      .set(fields)
      .where(and(eq(products.id, id), eq(products.developerId, developerId)));
  }
}
