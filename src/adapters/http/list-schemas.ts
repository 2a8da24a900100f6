import { t } from 'elysia';
import { CUSTOMER_LIST_LIMIT } from '../../app/customers/list-customers.ts';
import { LICENSE_LIST_LIMIT } from '../../app/licenses/list-licenses.ts';
import { ORDER_LIST_LIMIT } from '../../app/orders/list-orders.ts';
import { PROCESSOR_KINDS } from '../../domain/checkout-session.ts';
import { EMAIL_MAX_LENGTH } from '../../domain/developer.ts';
import { LICENSE_STATUSES } from '../../domain/license.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../domain/order.ts';
import { EXAMPLE } from './examples.ts';
import { LicenseStatus, LicenseView, Millis } from './schemas.ts';
import { literalUnion } from './vocabulary.ts';

// Query schemas of the seller's lists. Unknown parameters are ignored; bounds are checked by the use
// cases, so their 400 names the field. Every list is a keyset page: startingAfter = the last id seen.

const Limit = (bounds: { default: number; max: number }) =>
  t.Optional(t.Integer({ description: `Page size, 1 to ${bounds.max} (default ${bounds.default}).`, examples: [20], error: `limit must be a whole number from 1 to ${bounds.max}.` }));
const Cursor = (what: string) =>
  t.Optional(t.String({ maxLength: 100, description: `A ${what} id (the last of the previous page): the page starts after it.`, error: 'startingAfter must be an id of at most 100 characters.' }));
const ProductFilter = t.Optional(t.String({ maxLength: 100, description: 'Only this product’s.', examples: [EXAMPLE.productId], error: 'productId must be an id of at most 100 characters.' }));
const ExactEmail = t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Only this customer’s (the whole e-mail, case-insensitive).', examples: [EXAMPLE.buyerEmail], error: `email must be an e-mail address of at most ${EMAIL_MAX_LENGTH} characters.` }));
const CreatedAfter = t.Optional(t.Integer({ minimum: 0, description: 'Created at or after this Unix millisecond (inclusive).', examples: [EXAMPLE.time], error: 'createdAfter must be a time in Unix milliseconds.' }));
const CreatedBefore = t.Optional(t.Integer({ minimum: 0, description: 'Created before this Unix millisecond (exclusive), so [createdAfter, createdBefore) ranges tile.', error: 'createdBefore must be a time in Unix milliseconds.' }));

export const LicenseListQuery = t.Object(
  {
    limit: Limit(LICENSE_LIST_LIMIT),
    startingAfter: Cursor('license'),
    productId: ProductFilter,
    email: ExactEmail,
    status: t.Optional(literalUnion(LICENSE_STATUSES, { description: 'As validation sees it now: expired = past expiresAt, not revoked. With status=expired the list is ordered by expiresAt, most recently expired first (the cursor follows that order); otherwise newest issued first.', error: 'status must be active, expired or revoked.' })),
    trial: t.Optional(t.Boolean({ description: 'true: only free trials; false: only paid or granted licenses.', error: 'trial must be true or false.' })),
    createdAfter: CreatedAfter,
    createdBefore: CreatedBefore,
  },
  { additionalProperties: true },
);

export const DeveloperLicense = t.Composite([
  LicenseView,
  t.Object({
    customerEmail: t.String({ description: 'The e-mail of the customer who holds it.' }),
    trial: t.Boolean({ description: 'A free trial, not paid for (yet).' }),
    subscriptionId: t.Union([t.String(), t.Null()], { description: 'The subscription that renews it; null = one-off, granted or trial.' }),
  }),
]);

export const LicenseList = t.Object(
  { data: t.Array(DeveloperLicense), hasMore: t.Boolean({ description: 'More licenses after the last one: pass its id as startingAfter.' }) },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.licenseId,
            productId: EXAMPLE.productId,
            customerId: EXAMPLE.customerId,
            status: 'active',
            features: ['pro'],
            issuedAt: 1767225600000,
            expiresAt: null,
            machineFingerprint: EXAMPLE.machineFingerprint,
            customerEmail: EXAMPLE.buyerEmail,
            trial: false,
            subscriptionId: null,
          },
        ],
        hasMore: false,
      },
    ],
  },
);

export const CustomerListQuery = t.Object(
  {
    limit: Limit(CUSTOMER_LIST_LIMIT),
    startingAfter: Cursor('customer'),
    email: t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The start of the e-mail, case-insensitive (a whole address works too). Results then come in e-mail order.', examples: ['buyer@'], error: `email must be at most ${EMAIL_MAX_LENGTH} characters.` })),
  },
  { additionalProperties: true },
);

const CustomerLicense = t.Object({
  id: t.String(),
  productId: t.String(),
  status: LicenseStatus,
  issuedAt: Millis,
  expiresAt: t.Union([Millis, t.Null()], { description: 'null = perpetual.' }),
  trial: t.Boolean(),
});

export const CustomerList = t.Object(
  {
    data: t.Array(
      t.Object({
        id: t.String({ description: 'The customer id (cus_…).' }),
        email: t.String(),
        firstSeenAt: Millis,
        licenses: t.Array(CustomerLicense, { description: 'Their licenses from you (never another seller’s), newest first, at most 10.' }),
        moreLicenses: t.Boolean({ description: 'They hold more: list them with GET /developers/licenses?email=.' }),
      }),
    ),
    hasMore: t.Boolean({ description: 'More customers after the last one: pass its id as startingAfter.' }),
  },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.customerId,
            email: EXAMPLE.buyerEmail,
            firstSeenAt: EXAMPLE.time,
            licenses: [{ id: EXAMPLE.licenseId, productId: EXAMPLE.productId, status: 'active', issuedAt: EXAMPLE.time, expiresAt: null, trial: false }],
            moreLicenses: false,
          },
        ],
        hasMore: false,
      },
    ],
  },
);

export const OrderListQuery = t.Object(
  {
    limit: Limit(ORDER_LIST_LIMIT),
    startingAfter: Cursor('order'),
    productId: ProductFilter,
    email: ExactEmail,
    status: t.Optional(literalUnion(ORDER_STATUSES, { error: 'status must be paid or refunded.' })),
    createdAfter: CreatedAfter,
    createdBefore: CreatedBefore,
  },
  { additionalProperties: true },
);

const Nullable = (description: string) => t.Union([t.String(), t.Null()], { description });

export const OrderList = t.Object(
  {
    data: t.Array(
      t.Object({
        id: t.String({ description: 'ord_…' }),
        customerId: t.String(),
        customerEmail: t.String(),
        productId: t.String(),
        licenseId: t.String({ description: 'The license it paid for.' }),
        source: literalUnion(ORDER_SOURCES),
        sourceId: t.String({ description: 'The checkout session, terminal purchase or invoice it records.' }),
        amount: t.Integer({ description: 'In the currency’s minor unit.' }),
        currency: t.String(),
        processor: literalUnion(PROCESSOR_KINDS),
        paymentId: Nullable('The processor’s payment (PaymentIntent) id.'),
        processorReference: Nullable('The processor’s checkout session or invoice id.'),
        status: literalUnion(ORDER_STATUSES),
        createdAt: Millis,
        refundedAt: t.Union([Millis, t.Null()]),
      }),
    ),
    hasMore: t.Boolean({ description: 'More orders after the last one: pass its id as startingAfter.' }),
  },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.orderId,
            customerId: EXAMPLE.customerId,
            customerEmail: EXAMPLE.buyerEmail,
            productId: EXAMPLE.productId,
            licenseId: EXAMPLE.licenseId,
            source: 'checkout',
            sourceId: EXAMPLE.sessionId,
            amount: 4900,
            currency: 'usd',
            processor: 'stripe',
            paymentId: 'pi_3QxT7mL2kZ9vWb4R',
            processorReference: 'cs_test_a1B2c3D4e5F6',
            status: 'paid',
            createdAt: EXAMPLE.time,
            refundedAt: null,
          },
        ],
        hasMore: false,
      },
    ],
  },
);
