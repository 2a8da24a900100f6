import { LICENSE_STATUSES, type LicenseStatus } from '../domain/license.ts';
import type { Command } from './context.ts';
import { list, when } from './output.ts';
import { choiceFlag, timeFlag } from './seller-list-flags.ts';
import { printSellerPage } from './seller-list-page.ts';

interface ListedLicense {
  id: string;
  productId: string;
  customerId: string;
  customerEmail: string;
  status: LicenseStatus;
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  machineFingerprint: string | null;
  trial: boolean;
}

const FILTERS = ['email', 'product', 'status', 'trial', 'created-after', 'created-before', 'limit'] as const;

/** `seller licenses list`: one page of GET /developers/licenses, products by name. */
export const licenseList: Command = {
  path: 'seller licenses list',
  summary: 'list your licenses, newest first; find a buyer’s with --email',
  usage:
    `seller licenses list [--email <email>] [--product <productId>] [--status ${LICENSE_STATUSES.join('|')}] [--trial true|false]\n` +
    '         [--created-after <date>] [--created-before <date>] [--limit <1-100>] [--starting-after <licenseId>]',
  details: `--email finds the licenses of one buyer (the whole address, any case). --status is as validation sees it
now; --status expired lists the most recently expired first. --created-after (inclusive) and --created-before
(exclusive) take an ISO date (2026-01-31 is midnight UTC), a date-time (2026-01-31T12:00Z) or Unix milliseconds.
One page at a time (default 20, newest first); when there are more, the last line says how to get the next page.`,
  flags: [...FILTERS, 'starting-after'],
  async run(ctx) {
    const limit = ctx.flags.integer('limit', 1, 100);
    const query = {
      email: ctx.flags.string('email'),
      productId: ctx.flags.string('product'),
      status: choiceFlag(ctx.flags, 'status', LICENSE_STATUSES),
      trial: ctx.flags.boolean('trial')?.toString(),
      createdAfter: timeFlag(ctx.flags, 'created-after'),
      createdBefore: timeFlag(ctx.flags, 'created-before'),
      limit,
      startingAfter: ctx.flags.string('starting-after'),
    };
    await printSellerPage<ListedLicense>(ctx, {
      command: 'seller licenses list',
      path: '/developers/licenses',
      query,
      filters: FILTERS,
      headers: ['LICENSE', 'PRODUCT', 'EMAIL', 'STATUS', 'EXPIRES', 'FEATURES', 'MACHINE'],
      row: (l, productName) => [
        l.id,
        productName(l.productId),
        l.customerEmail,
        l.trial ? `${l.status} (trial)` : l.status,
        when(l.expiresAt),
        list(l.features),
        l.machineFingerprint ? 'bound' : '-',
      ],
      empty: () => (query.email ? `No licenses for ${query.email}.` : filtered(ctx.flags.has.bind(ctx.flags)) ? 'No licenses match.' : 'No licenses yet.'),
    });
  },
};

/** Some filter narrowed the list (so "none" does not mean the seller has no licenses at all). */
export function filtered(has: (flag: string) => boolean): boolean {
  return FILTERS.some((flag) => flag !== 'limit' && has(flag)) || has('starting-after');
}
