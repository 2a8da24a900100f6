import type { Product } from '../domain/product.ts';
import type { Page } from './page.ts';

export type ProductPage = Page<Product>;

export interface ProductRepository {
  create(product: Product): Promise<void>;
  /** Only the developer's own products: another tenant's id is null. */
  get(developerId: string, id: string): Promise<Product | null>;
  /** Any developer's product: buyers name products by id alone. */
  findById(id: string): Promise<Product | null>;
  /** Oldest first; `startingAfter` is a product id of the same developer. */
  list(developerId: string, page: { limit: number; startingAfter?: string }): Promise<ProductPage>;
  update(product: Product): Promise<void>;
}
