import { and, asc, eq } from 'drizzle-orm';
import type { Product } from '../../../domain/product.ts';
import type { ProductPage, ProductRepository } from '../../../ports/product-repository.ts';
import { oneOrNull, type SqlStore } from '../sql-store.ts';

export class DrizzleProductRepository implements ProductRepository {
  constructor(private readonly store: SqlStore) {}

  async create(product: Product): Promise<void> {
    await this.store.transactions.insertProduct(product);
  }

  async get(developerId: string, id: string): Promise<Product | null> {
    const { products } = this.store.tables;
    return oneOrNull(
      this.store.db.select().from(products).where(and(eq(products.id, id), eq(products.developerId, developerId))),
    );
  }

  async findById(id: string): Promise<Product | null> {
    const { products } = this.store.tables;
    return oneOrNull(this.store.db.select().from(products).where(eq(products.id, id)));
  }

  async list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<ProductPage> {
    const cursor = page.startingAfter ? await this.get(developerId, page.startingAfter) : null;
    const rows = await productListQuery(this.store, developerId, page.limit + 1, cursor);
    return { data: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  }

  async update(product: Product): Promise<void> {
    const { products } = this.store.tables;
    const { id, developerId, createdAt: _created, ...fields } = product;
    await this.store.db
      .update(products)
      .set(fields)
      .where(and(eq(products.id, id), eq(products.developerId, developerId)));
  }
}

/** A seller's products after the cursor: the range of products_developer_order, in its order (ids bytewise in every store). */
export function productListQuery(store: SqlStore, developerId: string, limit: number, cursor: { createdAt: number; id: string } | null) {
  const { db, tables: { products }, dialect } = store;
  const after = cursor ? dialect.after(products.createdAt, products.id, cursor) : undefined;
  return db
    .select()
    .from(products)
    .where(and(eq(products.developerId, developerId), after))
    .orderBy(asc(products.createdAt), asc(dialect.byteOrder(products.id)))
    .limit(limit);
}
