import type { Context } from './context.ts';
import type { RequestOptions } from './http.ts';
import { table } from './output.ts';
import { requireSeller } from './seller-auth.ts';
import { nextPage } from './seller-list-flags.ts';
import { allProducts } from './seller-products.ts';

export interface SellerListPage<T> {
  /** The command's words, for the "More:" line. */
  command: string;
  /** The GET path of the list, e.g. /developers/orders. */
  path: string;
  query: NonNullable<RequestOptions['query']>;
  /** The flags the "More:" line repeats as given. */
  filters: readonly string[];
  headers: readonly string[];
  /** One row of the table; productName falls back to the id of a product no longer listed. */
  row(item: T, productName: (productId: string) => string): string[];
  /** What an empty page says. */
  empty(): string;
}

/**
 * One page of a seller's list: as it came with --json; else a table naming products, and when there
 * is more, the command line for the next page.
 */
export async function printSellerPage<T extends { id: string }>(ctx: Context, list: SellerListPage<T>): Promise<void> {
  const { apiKey } = requireSeller(ctx);
  const page = await ctx.api.request<{ data: T[]; hasMore: boolean }>('GET', list.path, { apiKey, query: list.query });
  if (ctx.json) return ctx.result(page, '');
  const names = new Map((await allProducts(ctx, apiKey)).map((p) => [p.id, p.name]));
  const productName = (id: string) => names.get(id) ?? id;
  ctx.result(page, () => {
    if (page.data.length === 0) return list.empty();
    const more = page.hasMore ? nextPage(list.command, ctx.flags, list.filters, page.data.at(-1)!.id) : '';
    return table(list.headers, page.data.map((item) => list.row(item, productName))) + more;
  });
}
