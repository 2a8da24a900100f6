import type { Command } from './context.ts';
import { table, when } from './output.ts';
import { requireSeller } from './seller-auth.ts';
import { nextPage } from './seller-list-flags.ts';
import { allProducts } from './seller-products.ts';

interface ListedCustomer {
  id: string;
  email: string;
  firstSeenAt: number;
  licenses: { id: string; productId: string; status: string; trial: boolean }[];
  moreLicenses: boolean;
}

/** `seller customers list`: one page of GET /developers/customers, each with their licenses from this seller. */
export const customerList: Command = {
  path: 'seller customers list',
  summary: 'list your customers, newest first; search them with --email <start of the address>',
  usage: 'seller customers list [--email <prefix>] [--limit <1-100>] [--starting-after <customerId>]',
  details: `Everyone who holds one of your licenses (never another seller's), with their licenses from you.
--email finds the addresses that start with it, any case ("ann" finds ann@… and anna@…), in e-mail order;
without it, the customers who first got a license from you most recently come first. One page at a time
(default 20); when there are more, the last line says how to get the next page.`,
  flags: ['email', 'limit', 'starting-after'],
  async run(ctx) {
    const query = { email: ctx.flags.string('email'), limit: ctx.flags.integer('limit', 1, 100), startingAfter: ctx.flags.string('starting-after') };
    const { apiKey } = requireSeller(ctx);
    const page = await ctx.api.request<{ data: ListedCustomer[]; hasMore: boolean }>('GET', '/developers/customers', { apiKey, query });
    if (ctx.json) return ctx.result(page, '');
    const names = new Map((await allProducts(ctx, apiKey)).map((p) => [p.id, p.name]));
    ctx.result(page, () => {
      if (page.data.length === 0) return query.email ? `No customers whose e-mail starts with ${query.email}.` : 'No customers yet.';
      const rows = page.data.map((c) => [c.id, c.email, when(c.firstSeenAt), licensesOf(c, names)]);
      const more = page.hasMore ? nextPage('seller customers list', ctx.flags, ['email', 'limit'], page.data.at(-1)!.id) : '';
      return table(['CUSTOMER', 'EMAIL', 'FIRST SEEN', 'LICENSES'], rows) + more;
    });
  },
};

/** "2: CLI Pro active, CLI Pro revoked" — how many, then each by product and status (trials marked). */
function licensesOf(c: ListedCustomer, names: Map<string, string>): string {
  const each = c.licenses.map((l) => `${names.get(l.productId) ?? l.productId} ${l.status}${l.trial ? ' (trial)' : ''}`);
  return `${c.licenses.length}${c.moreLicenses ? '+' : ''}: ${each.join(', ')}${c.moreLicenses ? ', …' : ''}`;
}
