import { t } from 'elysia';
import { CUSTOMER_LIST_LIMIT } from '../../../../app/customers/list-customers.ts';
import { PROCESSOR_KINDS } from '../../../../domain/checkout-session.ts';
import { EMAIL_MAX_LENGTH } from '../../../../domain/developer.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../../../../domain/order.ts';
import { BILLING_INTERVALS } from '../../../../domain/product.ts';
import { SUBSCRIPTION_STATUSES } from '../../../../domain/subscription.ts';
import { literalUnion } from '../../vocabulary.ts';
import { EXAMPLE } from '../../examples.ts';
import { Cursor, Id, Input, licenseFields, Limit, Millis, MillisOrNull, Page } from '../../schemas.ts';
import { Activation, ACTIVATION_EXAMPLE } from '../licenses/schemas.ts';

/** TypeBox models of the customer routes: sign-in, the buyer's own account, and the seller's customer list. */

export const LoginInitBody = Input({ email: t.String({ maxLength: EMAIL_MAX_LENGTH }) }, { examples: [{ email: EXAMPLE.buyerEmail }] });

export const CodeSent = t.Object({
  otpId: t.String(),
  phoneMasked: t.String({ description: 'All but the last four digits masked.' }),
  expiresIn: t.Integer({ description: 'Seconds the code stays valid (300).' }),
});

export const LoginVerifyBody = Input({
  email: t.String({ maxLength: EMAIL_MAX_LENGTH }),
  otpId: Id(),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code.' }),
  deviceFingerprint: t.String({ minLength: 1, maxLength: 256, description: 'The identity token is bound to this device.' }),
}, { examples: [{ email: EXAMPLE.buyerEmail, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, deviceFingerprint: EXAMPLE.machineFingerprint }] });

/** A license as its holder sees it: with its product's name and its key. */
export const CustomerLicense = t.Object({
  ...licenseFields('id', 'productId'),
  productName: t.String(),
  ...licenseFields('status', 'features', 'issuedAt'),
  expiresAt: MillisOrNull(),
  licenseKey: t.String(),
});

export const LoginVerified = t.Object({
  identityToken: t.String({ description: 'Send as Authorization: Bearer, with this device’s fingerprint as X-Device-Fingerprint; valid 30 days, until POST /auth/logout.' }),
  licenses: t.Array(CustomerLicense),
});

/** The receipt's phone link (docs/customers.md): the token is what follows #phone-link= in its URL. */
const PhoneLinkToken = t.String({ minLength: 1, maxLength: 256, description: 'The token of the receipt’s link: what follows #phone-link= in its URL.' });

export const PhoneLinkBody = Input({ token: PhoneLinkToken }, { examples: [{ token: EXAMPLE.phoneLinkToken }] });

export const PhoneLinkVerifyBody = Input({
  token: PhoneLinkToken,
  otpId: Id(),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code texted to the checkout’s phone.' }),
  deviceFingerprint: t.String({ minLength: 1, maxLength: 256, description: 'The identity token is bound to this device.' }),
}, { examples: [{ token: EXAMPLE.phoneLinkToken, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, deviceFingerprint: EXAMPLE.machineFingerprint }] });

export const PhoneLinkVerified = t.Object({
  ...LoginVerified.properties,
  phoneMasked: t.String({ description: 'The confirmed sign-in phone, all but the last four digits masked.' }),
});

export const LoggedOut = t.Object({ loggedOut: t.Literal(true) });

/** The verified phone change (docs/customers.md): the code goes to the phone already on file. */
export const PhoneChangeBody = Input({
  phone: t.String({ maxLength: 32, description: 'The new phone: an optional + and 7 to 15 digits; spaces, dashes, dots and brackets are ignored.' }),
}, { examples: [{ phone: EXAMPLE.newPhone }] });

export const PhoneChangeVerifyBody = Input({
  otpId: Id(),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code texted to the phone on file.' }),
  phone: t.String({ maxLength: 32, description: 'The same new phone as in POST /customer/phone.' }),
}, { examples: [{ otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, phone: EXAMPLE.newPhone }] });

export const PhoneChanged = t.Object({ phoneMasked: t.String({ description: 'The new phone on file, all but the last four digits masked.' }) });

export const LicenseWithMachines = t.Object({
  ...CustomerLicense.properties,
  sellerName: t.String({ description: 'Who sold it: with the id and issuedAt, what tells two licenses of one product apart.' }),
  trial: t.Boolean({ description: 'A free trial (a subscription’s included), not paid for yet.' }),
  maxMachines: t.Union([t.Number(), t.Null()], { description: 'Machines this license may run on; null = unlimited.' }),
  activations: t.Array(Activation, { description: 'The machines it runs on, oldest first.' }),
});

export const CustomerLicenseList = t.Object({
  data: t.Array(LicenseWithMachines, { description: 'The customer’s licenses across sellers, oldest first.' }),
}, {
  examples: [{
    data: [{
      id: EXAMPLE.licenseId,
      productId: EXAMPLE.productId,
      productName: 'Pro Plan',
      sellerName: 'Acme Tools',
      trial: false,
      status: 'active',
      features: ['pro'],
      issuedAt: EXAMPLE.time,
      expiresAt: null,
      licenseKey: EXAMPLE.licenseKey,
      maxMachines: 2,
      activations: [ACTIVATION_EXAMPLE],
    }],
  }],
});

export const CustomerActivationParams = Input({ id: Id({ examples: [EXAMPLE.licenseId] }), activationId: Id({ examples: [EXAMPLE.activationId] }) });

export const CustomerListQuery = Input({
  limit: Limit(CUSTOMER_LIST_LIMIT),
  startingAfter: Cursor('customer'),
  email: t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The start of the e-mail, case-insensitive (a whole address works too). Results then come in e-mail order.', examples: ['buyer@'], 'x-error': `email must be at most ${EMAIL_MAX_LENGTH} characters.` })),
});

const ListedLicense = t.Object({ ...licenseFields('id', 'productId', 'status', 'issuedAt', 'expiresAt'), trial: t.Boolean() });

export const ListedCustomer = t.Object({
  id: t.String({ description: 'The customer id (cus_…).' }),
  email: t.String(),
  firstSeenAt: Millis,
  licenses: t.Array(ListedLicense, { description: 'Their licenses from you (never another seller’s), newest first, at most 10.' }),
  moreLicenses: t.Boolean({ description: 'They hold more: list them with GET /developers/licenses?email=.' }),
});

export const CustomerList = Page(ListedCustomer, 'customers', {
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
});

/** A subscription as its buyer sees it (docs/customers.md, "Subscriptions"). */
export const CustomerSubscription = t.Object({
  id: t.String({ description: 'sub_…' }),
  sellerName: t.String({ description: 'Who sells it.' }),
  productId: t.String(),
  productName: t.String(),
  licenseId: t.String({ description: 'The license it renews.' }),
  processor: literalUnion(PROCESSOR_KINDS),
  status: literalUnion(SUBSCRIPTION_STATUSES, { description: 'active (a trial too), past_due (a renewal failed), canceled (ended).' }),
  interval: literalUnion(BILLING_INTERVALS),
  currentPeriodEnd: Millis,
  trialEnd: MillisOrNull('While its free trial runs: when it ends and the first charge comes; null otherwise.'),
  cancelAtPeriodEnd: t.Boolean({ description: 'true: canceled by its buyer or seller, it runs to currentPeriodEnd and is not charged again.' }),
  nextChargeAt: MillisOrNull('When it charges next (trialEnd during a trial, else currentPeriodEnd); null when it will not.'),
  amount: t.Integer({ description: 'What it charges, in the currency’s minor unit: its last payment, or the price before any.' }),
  currency: t.String(),
  createdAt: Millis,
  canceledAt: MillisOrNull('When it ended; null while it runs.'),
});

const SUBSCRIPTION_EXAMPLE = {
  id: EXAMPLE.subscriptionId, sellerName: 'Acme Tools', productId: EXAMPLE.productId, productName: 'Pro monthly', licenseId: EXAMPLE.licenseId,
  processor: 'stripe', status: 'active', interval: 'month', currentPeriodEnd: 1769904000000, trialEnd: null, cancelAtPeriodEnd: false,
  nextChargeAt: 1769904000000, amount: 900, currency: 'usd', createdAt: EXAMPLE.time, canceledAt: null,
};

export const CustomerSubscriptionList = t.Object(
  { data: t.Array(CustomerSubscription, { description: 'Newest first, across sellers.' }) },
  { examples: [{ data: [SUBSCRIPTION_EXAMPLE] }] },
);

export const CustomerSubscriptionParams = Input({
  id: Id({ description: 'The subscription id (sub_…).', examples: [EXAMPLE.subscriptionId], 'x-error': 'id must be a subscription id of at most 100 characters.' }),
});

export const CustomerOrder = t.Object({
  id: t.String({ description: 'ord_…' }),
  sellerName: t.String(),
  productId: t.String(),
  productName: t.String(),
  licenseId: t.String(),
  source: literalUnion(ORDER_SOURCES, { description: 'checkout, purchase (in the terminal) or renewal (a subscription’s later period).' }),
  amount: t.Integer({ description: 'In the currency’s minor unit.' }),
  currency: t.String(),
  status: literalUnion(ORDER_STATUSES, { description: 'refunded once all of amount went back.' }),
  amountRefunded: t.Integer({ description: 'How much went back so far.' }),
  createdAt: Millis,
  receiptUrl: t.Union([t.String(), t.Null()], {
    description: 'The receipt: Stripe’s (the charge’s receipt or the hosted invoice), or for a sandbox order this service’s receipt page (its link carries a key: anyone given it can open it). null when the processor gave none.',
  }),
});

export const CustomerOrderList = t.Object(
  { data: t.Array(CustomerOrder, { description: 'Newest first, across sellers.' }) },
  {
    examples: [{
      data: [{
        id: EXAMPLE.orderId, sellerName: 'Acme Tools', productId: EXAMPLE.productId, productName: 'Pro monthly', licenseId: EXAMPLE.licenseId, source: 'checkout',
        amount: 900, currency: 'usd', status: 'paid', amountRefunded: 0, createdAt: EXAMPLE.time, receiptUrl: 'https://pay.stripe.com/receipts/payment/CAcaFwoV',
      }],
    }],
  },
);

export const CardChangeBody = Input(
  { subscriptionId: Id({ description: 'The subscription whose card changes (sub_…).', 'x-error': 'subscriptionId must be a subscription id of at most 100 characters.' }) },
  { examples: [{ subscriptionId: EXAMPLE.subscriptionId }] },
);

export const CardChange = t.Object({
  url: t.String({ description: 'Open it in the browser: Stripe’s billing portal for this subscription’s seller (a one-time link), or the sandbox’s card form (works 30 minutes).' }),
  processor: literalUnion(PROCESSOR_KINDS),
});
