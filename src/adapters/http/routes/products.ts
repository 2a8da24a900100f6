import { t } from 'elysia';
import { createProduct } from '../../../app/products/create-product.ts';
import { listProducts } from '../../../app/products/list-products.ts';
import { updateProduct } from '../../../app/products/update-product.ts';
import type { Product as DomainProduct } from '../../../domain/product.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withSecretKey } from '../auth.ts';
import { ACTIVATION_LIMITS, ACTIVATION_MESSAGES } from '../../../domain/activation.ts';
import { BILLING_INTERVALS, PRODUCT_LIMITS, PRODUCT_MESSAGES } from '../../../domain/product.ts';
import { LEASE_LIMITS, LEASE_MESSAGES } from '../../../domain/lease.ts';
import { errorsOf, Features, IdParams, Input, Int, Millis, Page, PageQuery, sellerRead } from '../schemas.ts';
import { literals } from '../vocabulary.ts';
import { idempotent, underKey } from '../idempotency.ts';

export const Product = t.Object({
  id: t.String(),
  name: t.String(),
  price: Int({ description: 'Price in the currency’s minor unit (cents).' }),
  currency: t.String({ description: 'ISO 4217, lower case.' }),
  features: t.Array(t.String()),
  licenseDays: t.Union([Int(), t.Null()], { description: 'Days a sold license lasts; null = perpetual.' }),
  maxMachines: t.Union([Int(), t.Null()], { description: 'Machines per license issued from now on (copied onto each license); null = unlimited.' }),
  deactivationsPer30Days: Int({ description: 'Machines a license’s holder may deactivate per rolling 30 days (docs/activations.md).' }),
  interval: t.Union([...literals(BILLING_INTERVALS), t.Null()], { description: 'Recurring billing period; null = one-off (docs/subscriptions-and-trials.md).' }),
  graceDays: Int({ description: 'Days a subscription’s license runs past an unpaid period.' }),
  trialDays: t.Union([Int(), t.Null()], { description: 'Days of a free trial (POST /trials); null = no trial.' }),
  maxLeases: t.Union([Int(), t.Null()], { description: 'Floating leases per license (POST /licenses/leases, docs/leases.md); null = leases off.' }),
  leaseSeconds: Int({ description: 'How long a lease lasts without a heartbeat.' }),
  maxBorrowHours: Int({ description: 'Hours a lease may be borrowed for offline use; 0 = no borrowing.' }),
  active: t.Boolean(),
  createdAt: Millis,
  updatedAt: Millis,
});

const productFields = {
  name: t.String({ minLength: 1, maxLength: PRODUCT_LIMITS.nameMax }),
  // `error`: the problem the 400 names for this field (see validationDetails).
  price: Int({ minimum: 0, maximum: PRODUCT_LIMITS.priceMax, description: 'Minor units, e.g. 1999 for $19.99.', 'x-error': PRODUCT_MESSAGES.price }),
  currency: t.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. "usd"; upper case is accepted and stored in lower case.', 'x-error': PRODUCT_MESSAGES.currency }),
  features: Features,
  licenseDays: t.Union([Int({ minimum: 1, maximum: PRODUCT_LIMITS.licenseDaysMax }), t.Null()]),
  maxMachines: t.Union([Int({ minimum: 1, maximum: ACTIVATION_LIMITS.maxMachinesMax }), t.Null()], {
    description: 'Machines per license, 1 to 1000 (default 1), or null for unlimited. Copied onto each license when it is issued.',
    'x-error': ACTIVATION_MESSAGES.maxMachines,
  }),
  deactivationsPer30Days: Int({
    minimum: 0,
    maximum: ACTIVATION_LIMITS.deactivationsMax,
    description: 'How many machines a license’s holder may deactivate per rolling 30 days (default 3; 0 = only you remove machines).',
    'x-error': ACTIVATION_MESSAGES.deactivations,
  }),
  interval: t.Union([...literals(BILLING_INTERVALS), t.Null()], {
    description: 'Bill every month or year (a subscription; licenseDays must then be null), or null for a one-off sale (default).',
    'x-error': PRODUCT_MESSAGES.interval,
  }),
  graceDays: Int({
    minimum: 0,
    maximum: PRODUCT_LIMITS.graceDaysMax,
    description: 'Days a subscription’s license runs past a period not yet paid (default 3).',
    'x-error': PRODUCT_MESSAGES.graceDays,
  }),
  trialDays: t.Union([Int({ minimum: 1, maximum: PRODUCT_LIMITS.trialDaysMax }), t.Null()], {
    description: 'Days of a free trial, one per customer e-mail and per machine (default null: no trial).',
    'x-error': PRODUCT_MESSAGES.trialDays,
  }),
  maxLeases: t.Union([Int({ minimum: 1, maximum: LEASE_LIMITS.maxLeasesMax }), t.Null()], {
    description: `Floating leases: how many machines may hold a lease on one license at once, 1 to ${LEASE_LIMITS.maxLeasesMax}, or null (default) for no leases. Applies at once to every license of the product that has no maxLeases of its own (docs/leases.md).`,
    'x-error': LEASE_MESSAGES.maxLeases,
  }),
  leaseSeconds: Int({
    minimum: LEASE_LIMITS.leaseSecondsMin,
    maximum: LEASE_LIMITS.leaseSecondsMax,
    description: `How long a lease lasts without a heartbeat, ${LEASE_LIMITS.leaseSecondsMin} to ${LEASE_LIMITS.leaseSecondsMax} seconds (default 600). A killed client's seat is free this long after its last heartbeat.`,
    'x-error': LEASE_MESSAGES.leaseSeconds,
  }),
  maxBorrowHours: Int({
    minimum: 0,
    maximum: LEASE_LIMITS.maxBorrowHoursMax,
    description: 'Hours a lease may be borrowed for offline use (POST /licenses/leases with borrowHours), 0 (default) for none.',
    'x-error': LEASE_MESSAGES.maxBorrowHours,
  }),
};

/** The terms a new product may leave out (each has a default) and a change may name. */
const optionalTerms = {
  features: t.Optional(productFields.features),
  licenseDays: t.Optional(productFields.licenseDays),
  maxMachines: t.Optional(productFields.maxMachines),
  deactivationsPer30Days: t.Optional(productFields.deactivationsPer30Days),
  interval: t.Optional(productFields.interval),
  graceDays: t.Optional(productFields.graceDays),
  trialDays: t.Optional(productFields.trialDays),
  maxLeases: t.Optional(productFields.maxLeases),
  leaseSeconds: t.Optional(productFields.leaseSeconds),
  maxBorrowHours: t.Optional(productFields.maxBorrowHours),
};

const NewProductBody = Input({
  name: productFields.name,
  price: productFields.price,
  currency: productFields.currency,
  ...optionalTerms,
}, { examples: [{ name: 'Pro', price: 1999, currency: 'usd', features: ['pro', 'export'], licenseDays: 365, maxMachines: 3 }] });

const ProductChangesBody = Input(
  {
    name: t.Optional(productFields.name),
    price: t.Optional(productFields.price),
    currency: t.Optional(productFields.currency),
    ...optionalTerms,
    active: t.Optional(t.Boolean({ description: 'Inactive products cannot be bought; their licenses keep working.' })),
  },
  { minProperties: 1, description: 'At least one field to change.', examples: [{ price: 2499, features: ['pro', 'export', 'sync'] }] },
);

const ProductListQuery = PageQuery('A product id: the page starts after it.');
const ProductList = Page(Product);

const publicProduct = ({ developerId: _owner, ...product }: DomainProduct) => product;

export function productRoutes(deps: Deps) {
  const tags = ['Products'];
  return withSecretKey(deps)
    .post(
      '/developers/products',
      async ({ caller, body, set, request }) => {
        set.status = 201;
        return publicProduct(await underKey(request, () => createProduct(deps, caller.developerId, body)));
      },
      {
        body: NewProductBody,
        ...idempotent(deps, {
          kind: 'product',
          status: 201,
          answer: async (id) => {
            const product = await deps.products.findById(id);
            return product && publicProduct(product);
          },
        }),
        response: { 201: Product, ...errorsOf(400, 401, 403, 413) },
        detail: { tags, summary: 'Create a product', security: SECURITY.secret },
      },
    )
    .get(
      '/developers/products',
      async ({ caller, query }) => {
        const page = await listProducts(deps, caller.developerId, query);
        return { data: page.data.map(publicProduct), hasMore: page.hasMore };
      },
      sellerRead(ProductListQuery, ProductList, { tags, summary: 'List products, oldest first', description: 'Cursor pagination: pass the last id as startingAfter while hasMore.' }),
    )
    .patch(
      '/developers/products/:id',
      async ({ caller, params, body }) => {
        return publicProduct(await updateProduct(deps, caller.developerId, params.id, body));
      },
      {
        params: IdParams,
        body: ProductChangesBody,
        response: { 200: Product, ...errorsOf(400, 401, 403, 404, 413) },
        detail: { tags, summary: 'Update a product', description: 'Issued licenses keep the terms they were issued with, except the lease terms (maxLeases, leaseSeconds, maxBorrowHours): those apply at once to every license without its own (docs/leases.md).', security: SECURITY.secret },
      },
    );
}
