import type { Command } from './context.ts';
import { when } from './output.ts';
import { printSellerPage } from './seller-list-page.ts';

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
    await printSellerPage<ListedCustomer>(ctx, {
      command: 'seller customers list',
      path: '/developers/customers',
      query,
      filters: ['email', 'limit'],
      headers: ['CUSTOMER', 'EMAIL', 'FIRST SEEN', 'LICENSES'],
      row: (c, productName) => [c.id, c.email, when(c.firstSeenAt), licensesOf(c, productName)],
      empty: () => (query.email ? `No customers whose e-mail starts with ${query.email}.` : 'No customers yet.'),
    });
  },
};

/** "2: CLI Pro active, CLI Pro revoked" — how many, then each by product and status (trials marked). */
function licensesOf(c: ListedCustomer, productName: (productId: string) => string): string {
  const each = c.licenses.map((l) => `${productName(l.productId)} ${l.status}${l.trial ? ' (trial)' : ''}`);
  return `${c.licenses.length}${c.moreLicenses ? '+' : ''}: ${each.join(', ')}${c.moreLicenses ? ', …' : ''}`;
}
