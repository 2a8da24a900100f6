import type { Command } from './context.ts';
import { list, table, when } from './output.ts';
import { requireSeller } from './seller-auth.ts';
import { allProducts } from './seller-products.ts';

interface ListedLicense {
  id: string;
  productId: string;
  customerId: string;
  customerEmail: string;
  status: string;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  machineFingerprint: string | null;
}

/** `seller licenses list`: one page of GET /developers/licenses, products by name. */
export const licenseList: Command = {
  path: 'seller licenses list',
  summary: 'list your licenses, newest first; find a buyer’s with --email',
  usage: 'seller licenses list [--email <email>] [--product <productId>] [--limit <1-100>] [--starting-after <licenseId>]',
  details: `--email finds the licenses of one buyer (the whole address, any case). One page at a time (default 20,
newest first); when there are more, the last line says how to get the next page.`,
  flags: ['email', 'product', 'limit', 'starting-after'],
  async run(ctx) {
    const limit = ctx.flags.integer('limit', 1, 100);
    const { apiKey } = requireSeller(ctx);
    const query = { email: ctx.flags.string('email'), productId: ctx.flags.string('product'), limit, startingAfter: ctx.flags.string('starting-after') };
    const page = await ctx.api.request<{ data: ListedLicense[]; hasMore: boolean }>('GET', '/developers/licenses', { apiKey, query });
    if (ctx.json) return ctx.result(page, '');
    const names = new Map((await allProducts(ctx, apiKey)).map((p) => [p.id, p.name]));
    ctx.result(page, () => {
      if (page.data.length === 0) return query.email ? `No licenses for ${query.email}.` : 'No licenses yet.';
      const rows = page.data.map((l) => [l.id, names.get(l.productId) ?? l.productId, l.customerEmail, l.status, when(l.expiresAt), list(l.features), l.machineFingerprint ? 'bound' : '-']);
      const more = page.hasMore ? `\nMore: licensing seller licenses list --starting-after ${page.data.at(-1)!.id}${passOn(ctx.flags.string('email'), ctx.flags.string('product'), limit)}` : '';
      return table(['LICENSE', 'PRODUCT', 'EMAIL', 'STATUS', 'EXPIRES', 'FEATURES', 'MACHINE'], rows) + more;
    });
  },
};

/** The filters of this page, repeated for the next one. */
function passOn(email: string | undefined, product: string | undefined, limit: number | undefined): string {
  return `${email ? ` --email ${email}` : ''}${product ? ` --product ${product}` : ''}${limit ? ` --limit ${limit}` : ''}`;
}
