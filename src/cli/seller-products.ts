import { BILLING_INTERVALS, PRODUCT_LIMITS, type BillingInterval, type Product as DomainProduct } from '../domain/product.ts';
import { isOneOf, orList } from '../domain/vocabulary.ts';
import { formatPrice, minorUnitDigits } from '../domain/money.ts';
import { positionals, type Flags } from './args.ts';
import type { Command, Context } from './context.ts';
import { CliError, UsageError } from './errors.ts';
import { fields, list, table } from './output.ts';
import { requireSeller } from './seller-auth.ts';

/** A product as the API shows it: the domain's, without the owner. */
type Product = Omit<DomainProduct, 'developerId'>;

/** "19.99" usd → 1999, "500" jpy → 500: exact decimal arithmetic on the digits, no floats. */
export function toMinorUnits(price: string, currency: string): number {
  const digits = minorUnitDigits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(price.trim());
  if (!match) throw new UsageError(`--price must be an amount such as 19.99, not "${price}"`);
  const fraction = match[2] ?? '';
  if (fraction.length > digits) {
    throw new UsageError(`--price ${price}: ${currency.toUpperCase()} has ${digits === 0 ? 'no' : digits} decimal place${digits === 1 ? '' : 's'}`);
  }
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

function currencyOf(flags: Flags): string | undefined {
  const currency = flags.string('currency')?.trim().toLowerCase();
  if (currency !== undefined && !/^[a-z]{3}$/.test(currency)) throw new UsageError('--currency must be an ISO 4217 code such as usd');
  return currency;
}

/** `--license-days 365`, or `--license-days perpetual` (null) when updating. */
function licenseDays(flags: Flags): number | null | undefined {
  const raw = flags.string('license-days');
  if (raw === undefined) return undefined;
  if (['perpetual', 'none', 'null'].includes(raw.trim().toLowerCase())) return null;
  return flags.integer('license-days', 1, 36_500);
}

const NONE = ['none', 'null', 'off'];
const INTERVAL_CHOICES = BILLING_INTERVALS.join('|');
/** How `products list` names a billing period: a new interval without its word fails the type check. */
const PERIODICALLY: Record<BillingInterval, string> = { month: 'monthly', year: 'yearly' };

/** `--interval month|year` sells a subscription; `--interval none` makes it one-off again. */
function billing(flags: Flags): Partial<Pick<Product, 'interval' | 'graceDays' | 'trialDays'>> {
  const out: Partial<Pick<Product, 'interval' | 'graceDays' | 'trialDays'>> = {};
  const interval = flags.string('interval')?.trim().toLowerCase();
  if (interval !== undefined) {
    if (!isOneOf(BILLING_INTERVALS, interval) && !NONE.includes(interval)) throw new UsageError(`--interval must be ${orList([...BILLING_INTERVALS, 'none'])}`);
    out.interval = isOneOf(BILLING_INTERVALS, interval) ? interval : null;
  }
  if (flags.string('grace-days') !== undefined) out.graceDays = flags.integer('grace-days', 0, PRODUCT_LIMITS.graceDaysMax);
  const trial = flags.string('trial-days');
  if (trial !== undefined) out.trialDays = NONE.includes(trial.trim().toLowerCase()) ? null : flags.integer('trial-days', 1, PRODUCT_LIMITS.trialDaysMax);
  return out;
}

const term = (p: Product) => {
  const base = p.interval ? `${PERIODICALLY[p.interval]} (+${p.graceDays} days grace)` : p.licenseDays === null ? 'perpetual' : `${p.licenseDays} days`;
  return p.trialDays ? `${base}, ${p.trialDays}-day trial` : base;
};

function describe(p: Product): string {
  return fields([
    ['Product', p.id],
    ['Name', p.name],
    ['Price', formatPrice(p.price, p.currency)],
    ['Features', list(p.features)],
    ['Term', term(p)],
    ['Active', p.active ? 'yes' : 'no'],
  ]);
}

export async function allProducts(ctx: Context, apiKey: string): Promise<Product[]> {
  const products: Product[] = [];
  for (let startingAfter: string | undefined; ; ) {
    const page = await ctx.api.request<{ data: Product[]; hasMore: boolean }>('GET', '/developers/products', {
      apiKey,
      query: { limit: 100, startingAfter },
    });
    products.push(...page.data);
    if (!page.hasMore || page.data.length === 0) return products;
    startingAfter = page.data[page.data.length - 1]!.id;
  }
}

const create: Command = {
  path: 'seller products create',
  summary: 'create a product',
  usage: `seller products create --name <name> --price <19.99> --currency <usd> [--features a,b] [--license-days <n>] [--interval ${INTERVAL_CHOICES}] [--grace-days <n>] [--trial-days <n>]`,
  flags: ['name', 'price', 'currency', 'features', 'license-days', 'interval', 'grace-days', 'trial-days'],
  async run(ctx) {
    const name = ctx.flags.required('name', '--name <name>');
    const currency = currencyOf(ctx.flags);
    if (!currency) throw new UsageError('missing --currency <code>, e.g. --currency usd');
    const price = toMinorUnits(ctx.flags.required('price', '--price <amount>'), currency);
    const days = licenseDays(ctx.flags);
    const body = { name, price, currency, features: ctx.flags.list('features') ?? [], ...(days === undefined ? {} : { licenseDays: days }), ...billing(ctx.flags) };
    const { apiKey } = requireSeller(ctx);
    const product = await ctx.api.request<Product>('POST', '/developers/products', { apiKey, body });
    ctx.result(product, () => describe(product));
  },
};

const listCommand: Command = {
  path: 'seller products list',
  summary: 'list your products, oldest first',
  usage: 'seller products list',
  flags: [],
  async run(ctx) {
    const { apiKey } = requireSeller(ctx);
    const products = await allProducts(ctx, apiKey);
    ctx.result({ data: products }, () =>
      products.length === 0
        ? 'No products yet: licensing seller products create --name … --price … --currency …'
        : table(
            ['ID', 'NAME', 'PRICE', 'FEATURES', 'TERM', 'ACTIVE'],
            products.map((p) => [p.id, p.name, formatPrice(p.price, p.currency), list(p.features), term(p), p.active ? 'yes' : 'no']),
          ),
    );
  },
};

const update: Command = {
  path: 'seller products update',
  maxArgs: 1,
  summary: 'change a product (issued licenses keep their terms)',
  usage:
    `seller products update <productId> [--name <name>] [--price <19.99>] [--currency <usd>] [--features a,b] [--license-days <n>|perpetual] [--interval ${INTERVAL_CHOICES}|none] [--grace-days <n>] [--trial-days <n>|none] [--active true|false]`,
  flags: ['name', 'price', 'currency', 'features', 'license-days', 'interval', 'grace-days', 'trial-days', 'active'],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['productId']);
    const changes: Record<string, unknown> = {};
    const name = ctx.flags.string('name');
    if (name !== undefined) changes.name = name;
    const currency = currencyOf(ctx.flags);
    if (currency !== undefined) changes.currency = currency;
    const features = ctx.flags.list('features');
    if (features !== undefined) changes.features = features;
    const days = licenseDays(ctx.flags);
    if (days !== undefined) changes.licenseDays = days;
    Object.assign(changes, billing(ctx.flags));
    const active = ctx.flags.boolean('active');
    if (active !== undefined) changes.active = active;
    const price = ctx.flags.string('price');
    if (price === undefined && Object.keys(changes).length === 0) throw new UsageError('nothing to change: give at least one of --name, --price, --currency, --features, --license-days, --interval, --grace-days, --trial-days, --active');
    const { apiKey } = requireSeller(ctx);
    if (price !== undefined) changes.price = toMinorUnits(price, currency ?? (await currentCurrency(ctx, apiKey, id!)));
    const product = await ctx.api.request<Product>('PATCH', `/developers/products/${encodeURIComponent(id!)}`, { apiKey, body: changes });
    ctx.result(product, () => describe(product));
  },
};

/** A price alone is in the product's own currency, so it is looked up first. */
async function currentCurrency(ctx: Context, apiKey: string, id: string): Promise<string> {
  const product = (await allProducts(ctx, apiKey)).find((p) => p.id === id);
  if (!product) throw new CliError(`no product ${id}`, 'not_found');
  return product.currency;
}

export const sellerProductCommands: Command[] = [create, listCommand, update];
