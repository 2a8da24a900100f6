import { formatPrice } from '../domain/money.ts';
import { ORDER_STATUSES, type OrderStatus } from '../domain/order.ts';
import type { Command } from './context.ts';
import { when } from './output.ts';
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
        o.status === 'refunded' ? `refunded ${when(o.refundedAt)}` : o.status,
        o.licenseId,
        `${o.processor} ${o.paymentId ?? '-'}`,
      ],
      empty: () => (FILTERS.some((f) => f !== 'limit' && ctx.flags.has(f)) ? 'No orders match.' : 'No orders yet.'),
    });
  },
};
