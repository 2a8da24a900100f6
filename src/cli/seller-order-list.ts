import { formatPrice } from '../domain/money.ts';
import { ORDER_STATUSES, type OrderStatus } from '../domain/order.ts';
import { positionals } from './args.ts';
import type { Command } from './context.ts';
import { fields, when } from './output.ts';
import { confirm } from './prompt.ts';
import { requireSeller } from './seller-auth.ts';
import { choiceFlag, timeFlag } from './seller-list-flags.ts';
import { printSellerPage } from './seller-list-page.ts';

interface ListedOrder {
  id: string;
  customerEmail: string;
  productId: string;
  licenseId: string;
  source: string;
  amount: number;
  currency: string;
  processor: string;
  paymentId: string | null;
  status: OrderStatus;
  createdAt: number;
  amountRefunded: number;
  refundedAt: number | null;
}

const FILTERS = ['product', 'email', 'status', 'created-after', 'created-before', 'limit'] as const;

/** `seller orders list`: one page of GET /developers/orders (money in: checkouts, terminal purchases, renewals). */
export const orderList: Command = {
  path: 'seller orders list',
  summary: 'list your orders (payments and refunds), newest first',
  usage:
    `seller orders list [--product <productId>] [--email <email>] [--status ${ORDER_STATUSES.join('|')}]\n` +
    '         [--created-after <date>] [--created-before <date>] [--limit <1-100>] [--starting-after <orderId>]',
  details: `Completed checkouts, terminal purchases and renewals, with the amount, the processor's payment id and
the license each paid for. --email is one buyer's whole address (any case). --created-after (inclusive) and
--created-before (exclusive) take an ISO date (2026-01-31 is midnight UTC), a date-time (2026-01-31T12:00Z)
or Unix milliseconds. One page at a time (default 20); the last line says how to get the next page.`,
  flags: [...FILTERS, 'starting-after'],
  async run(ctx) {
    const query = {
      productId: ctx.flags.string('product'),
      email: ctx.flags.string('email'),
      status: choiceFlag(ctx.flags, 'status', ORDER_STATUSES),
      createdAfter: timeFlag(ctx.flags, 'created-after'),
      createdBefore: timeFlag(ctx.flags, 'created-before'),
      limit: ctx.flags.integer('limit', 1, 100),
      startingAfter: ctx.flags.string('starting-after'),
    };
    await printSellerPage<ListedOrder>(ctx, {
      command: 'seller orders list',
      path: '/developers/orders',
      query,
      filters: FILTERS,
      headers: ['ORDER', 'DATE', 'PRODUCT', 'EMAIL', 'AMOUNT', 'STATUS', 'LICENSE', 'PAYMENT'],
      row: (o, productName) => [
        o.id,
        when(o.createdAt),
        productName(o.productId),
        o.customerEmail,
        formatPrice(o.amount, o.currency),
        refundState(o),
        o.licenseId,
        `${o.processor} ${o.paymentId ?? '-'}`,
      ],
      empty: () => (FILTERS.some((f) => f !== 'limit' && ctx.flags.has(f)) ? 'No orders match.' : 'No orders yet.'),
    });
  },
};

/** `refunded <when>`, `paid (refunded 3.00 USD)` for a partial refund, or `paid`. */
function refundState(o: ListedOrder): string {
  if (o.status === 'refunded') return `refunded ${when(o.refundedAt)}`;
  return o.amountRefunded > 0 ? `${o.status} (refunded ${formatPrice(o.amountRefunded, o.currency)})` : o.status;
}

/** `seller orders refund`: POST /developers/orders/:id/refund. */
export const orderRefund: Command = {
  path: 'seller orders refund',
  maxArgs: 1,
  summary: 'refund an order, in full or in part',
  usage: 'seller orders refund <orderId> [--amount <minor units>] [--yes]',
  details: `Gives money back to the buyer through your payment processor (in the sandbox, at once). Without
--amount, all that is left of the order; --amount is in the currency's minor unit (cents). Once all of an
order went back, what it paid for is taken back: its license is revoked, or a renewal's license goes back to
the end of the period paid before it. Asks for confirmation on a terminal; --yes (-y) skips the question, and
is required without a terminal.`,
  flags: ['amount', 'yes'],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['orderId']);
    const amount = ctx.flags.integer('amount', 1, Number.MAX_SAFE_INTEGER);
    const { apiKey } = requireSeller(ctx);
    await confirm(ctx, `Refund ${amount === undefined ? 'all that is left of' : `${amount} (minor units) of`} ${id}? The money goes back to the buyer; this cannot be undone.`);
    const order = await ctx.api.request<ListedOrder>('POST', `/developers/orders/${encodeURIComponent(id!)}/refund`, { apiKey, body: amount === undefined ? {} : { amount } });
    ctx.result(order, () =>
      fields([
        ['order', order.id],
        ['amount', formatPrice(order.amount, order.currency)],
        ['refunded', formatPrice(order.amountRefunded, order.currency)],
        ['status', refundState(order)],
        ['license', order.licenseId],
      ]),
    );
  },
};
