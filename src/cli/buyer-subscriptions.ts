import type { CustomerSubscriptionView } from '../app/subscriptions/customer-subscriptions.ts';
import { formatPrice } from '../domain/money.ts';
import { positionals } from './args.ts';
import { asBuyer } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { table, when } from './output.ts';
import { confirm } from './prompt.ts';

/** A subscription as GET /customer/subscriptions lists it (docs/customers.md). */
type Subscription = CustomerSubscriptionView;

const day = (ms: number | null) => when(ms).slice(0, 10);

/** What happens next: the next charge, or the day it ends. */
function next(s: Subscription): string {
  if (s.status === 'canceled') return 'ended';
  if (s.cancelAtPeriodEnd) return `ends ${day(s.trialEnd ?? s.currentPeriodEnd)}`;
  return `${s.trialEnd ? 'trial, ' : ''}charges ${day(s.nextChargeAt)}`;
}

function subscriptionsTable(data: readonly Subscription[]): string {
  const rows = data.map((s) => [s.id, s.productName, s.sellerName, s.status, `${formatPrice(s.amount, s.currency)}/${s.interval}`, next(s)]);
  return table(['ID', 'PRODUCT', 'SELLER', 'STATUS', 'PRICE', 'NEXT'], rows);
}

const subscriptions: Command = {
  path: 'subscriptions',
  summary: 'list your subscriptions: status, price, next charge',
  usage: 'subscriptions',
  details: `For the logged-in buyer (licensing login): every subscription, across sellers, with its price, and
when it charges next or the day it ends. Cancel one with licensing cancel <id>; undo that before it ends
with licensing resume <id>.`,
  flags: [],
  async run(ctx) {
    const { data } = await asBuyer<{ data: Subscription[] }>(ctx, 'GET', '/customer/subscriptions');
    ctx.result({ data }, () => (data.length === 0 ? 'No subscriptions.' : subscriptionsTable(data)));
  },
};

async function change(ctx: Context, action: 'cancel' | 'resume'): Promise<void> {
  const [id] = positionals(ctx.args, ['subscriptionId']);
  const path = `/customer/subscriptions/${encodeURIComponent(id!)}/${action}`;
  const changed = await asBuyer<Subscription>(ctx, 'POST', path);
  ctx.result(changed, () =>
    action === 'cancel'
      ? `Canceled ${changed.productName} (${changed.id}): no further charge; it runs until ${day(changed.trialEnd ?? changed.currentPeriodEnd)}. Undo it with licensing resume ${changed.id}.`
      : `Resumed ${changed.productName} (${changed.id}): ${next(changed)}.`,
  );
}

const cancel: Command = {
  path: 'cancel',
  maxArgs: 1,
  summary: 'cancel one of your subscriptions at the end of its period',
  usage: 'cancel <subscriptionId> [--yes]',
  details: `It is not charged again and runs to the end of the period paid for (or of its free trial: then
nothing is charged at all), then ends with its license. licensing resume <id> undoes it until then. Asks
for confirmation on a terminal; --yes (-y) skips the question, and is required without a terminal.`,
  flags: ['yes'],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['subscriptionId']);
    await confirm(ctx, `Cancel subscription ${id}? It will not be charged again and ends at the end of its period.`);
    await change(ctx, 'cancel');
  },
};

const resume: Command = {
  path: 'resume',
  maxArgs: 1,
  summary: 'resume a subscription you canceled, before its period ends',
  usage: 'resume <subscriptionId>',
  details: 'It renews again at the end of its period, as before. An ended subscription cannot be resumed: buy the product again.',
  flags: [],
  run: (ctx) => change(ctx, 'resume'),
};

export const buyerSubscriptionCommands: Command[] = [subscriptions, cancel, resume];
