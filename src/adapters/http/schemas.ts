import { t } from 'elysia';
import { MAX_EXPIRY } from '../../app/licenses/grant-license.ts';
import { ACTIVATION_LIMITS, ACTIVATION_MESSAGES } from '../../domain/activation.ts';
import { API_KEY_SCOPES, EMAIL_MAX_LENGTH } from '../../domain/developer.ts';
import { LICENSE_STATUSES, VALIDATION_REASONS } from '../../domain/license.ts';
import { MAX_KEY_LENGTH } from '../../domain/license-key.ts';
import { BILLING_INTERVALS, PRODUCT_LIMITS, PRODUCT_MESSAGES } from '../../domain/product.ts';
import { EXAMPLE } from './examples.ts';
import { literalUnion, literals } from './vocabulary.ts';

/** TypeBox models: the one source of request/response types and of the OpenAPI document. */
export const ErrorBody = t.Object(
  {
    error: t.Object({
      code: t.String({ description: 'Stable snake_case code.' }),
      message: t.String({ description: 'A human sentence.' }),
      details: t.Optional(t.Record(t.String(), t.Unknown())),
    }),
  },
  { title: 'Error' },
);

/**
 * Whole numbers in JSON bodies. Elysia's t.Integer also accepts numeric strings ("1999", "0x10") and
 * converts them; a JSON API should not guess, so bodies use a strict number with multipleOf 1.
 */
const Int = (options: { minimum?: number; maximum?: number; description?: string; error?: string } = {}) => t.Number({ multipleOf: 1, ...options });

/**
 * Request objects: unknown fields are ignored, not refused, so clients can send more than this
 * version knows (use cases read only the fields they name).
 */
type Properties = Parameters<typeof t.Object>[0];
const Input = <T extends Properties>(properties: T, options: Parameters<typeof t.Object>[1] = {}) =>
  t.Object(properties, { additionalProperties: true, ...options });

export const Millis = Int({ description: 'Unix time in milliseconds.' });
const FutureMillis = Int({ minimum: 0, maximum: MAX_EXPIRY, description: 'Unix time in milliseconds.' });
const Features = t.Array(t.String({ minLength: 1, maxLength: PRODUCT_LIMITS.featureMax }), { maxItems: PRODUCT_LIMITS.featuresMax, description: 'Entitlements; may be empty.' });
export const LicenseStatus = literalUnion(LICENSE_STATUSES);

export const SignupBody = Input({
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Unique across developers.' }),
  name: t.String({ minLength: 1, maxLength: 200 }),
}, { examples: [{ email: EXAMPLE.sellerEmail, name: 'Ada Tools' }] });

export const SignupResponse = t.Object({
  id: t.String(),
  email: t.String(),
  name: t.String(),
  apiKey: t.String({ description: 'Secret key (sk_…). Shown once; keep it on your server.' }),
  publishableKey: t.String({ description: 'Publishable key (pk_…): validation and checkout only, safe to ship in apps.' }),
  createdAt: Millis,
}, {
  examples: [{ id: EXAMPLE.developerId, email: EXAMPLE.sellerEmail, name: 'Ada Tools', apiKey: EXAMPLE.secretKey, publishableKey: EXAMPLE.publishableKey, createdAt: EXAMPLE.time }],
});

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
  active: t.Boolean(),
  createdAt: Millis,
  updatedAt: Millis,
});

const productFields = {
  name: t.String({ minLength: 1, maxLength: PRODUCT_LIMITS.nameMax }),
  // `error`: the problem the 400 names for this field (see validationDetails).
  price: Int({ minimum: 0, maximum: PRODUCT_LIMITS.priceMax, description: 'Minor units, e.g. 1999 for $19.99.', error: PRODUCT_MESSAGES.price }),
  currency: t.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217, e.g. "usd"; upper case is accepted and stored in lower case.', error: PRODUCT_MESSAGES.currency }),
  features: Features,
  licenseDays: t.Union([Int({ minimum: 1, maximum: PRODUCT_LIMITS.licenseDaysMax }), t.Null()]),
  maxMachines: t.Union([Int({ minimum: 1, maximum: ACTIVATION_LIMITS.maxMachinesMax }), t.Null()], {
    description: 'Machines per license, 1 to 1000 (default 1), or null for unlimited. Copied onto each license when it is issued.',
    error: ACTIVATION_MESSAGES.maxMachines,
  }),
  deactivationsPer30Days: Int({
    minimum: 0,
    maximum: ACTIVATION_LIMITS.deactivationsMax,
    description: 'How many machines a license’s holder may deactivate per rolling 30 days (default 3; 0 = only you remove machines).',
    error: ACTIVATION_MESSAGES.deactivations,
  }),
  interval: t.Union([...literals(BILLING_INTERVALS), t.Null()], {
    description: 'Bill every month or year (a subscription; licenseDays must then be null), or null for a one-off sale (default).',
    error: PRODUCT_MESSAGES.interval,
  }),
  graceDays: Int({
    minimum: 0,
    maximum: PRODUCT_LIMITS.graceDaysMax,
    description: 'Days a subscription’s license runs past a period not yet paid (default 3).',
    error: PRODUCT_MESSAGES.graceDays,
  }),
  trialDays: t.Union([Int({ minimum: 1, maximum: PRODUCT_LIMITS.trialDaysMax }), t.Null()], {
    description: 'Days of a free trial, one per customer e-mail and per machine (default null: no trial).',
    error: PRODUCT_MESSAGES.trialDays,
  }),
};

export const NewProductBody = Input({
  name: productFields.name,
  price: productFields.price,
  currency: productFields.currency,
  features: t.Optional(productFields.features),
  licenseDays: t.Optional(productFields.licenseDays),
  maxMachines: t.Optional(productFields.maxMachines),
  deactivationsPer30Days: t.Optional(productFields.deactivationsPer30Days),
  interval: t.Optional(productFields.interval),
  graceDays: t.Optional(productFields.graceDays),
  trialDays: t.Optional(productFields.trialDays),
}, { examples: [{ name: 'Pro', price: 1999, currency: 'usd', features: ['pro', 'export'], licenseDays: 365, maxMachines: 3 }] });

export const ProductChangesBody = Input(
  {
  name: t.Optional(productFields.name),
  price: t.Optional(productFields.price),
  currency: t.Optional(productFields.currency),
  features: t.Optional(productFields.features),
  licenseDays: t.Optional(productFields.licenseDays),
  maxMachines: t.Optional(productFields.maxMachines),
  deactivationsPer30Days: t.Optional(productFields.deactivationsPer30Days),
  interval: t.Optional(productFields.interval),
  graceDays: t.Optional(productFields.graceDays),
  trialDays: t.Optional(productFields.trialDays),
  active: t.Optional(t.Boolean({ description: 'Inactive products cannot be bought; their licenses keep working.' })),
  },
  { minProperties: 1, description: 'At least one field to change.', examples: [{ price: 2499, features: ['pro', 'export', 'sync'] }] },
);

export const ProductListQuery = Input({
  // Bounds are checked by the use case: Elysia's query coercion would report them without the field name.
  limit: t.Optional(t.Integer({ description: 'Page size, 1 to 100 (default 20).', examples: [20] })),
  // No example: a cursor comes from the previous page, and one naming no product of yours is refused.
  startingAfter: t.Optional(t.String({ maxLength: 100, description: 'A product id: the page starts after it.' })),
});

export const ProductList = t.Object({ data: t.Array(Product), hasMore: t.Boolean() });

export const LicenseView = t.Object({
  id: t.String(),
  productId: t.String(),
  customerId: t.String(),
  status: LicenseStatus,
  features: t.Array(t.String()),
  issuedAt: Millis,
  expiresAt: t.Union([Millis, t.Null()], { description: 'null = perpetual.' }),
  machineFingerprint: t.Union([t.String(), t.Null()], { description: 'The machine the license is bound to; null = unbound.' }),
});

export const GrantBody = Input({
  productId: t.String({ maxLength: 100 }),
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The customer’s e-mail; the customer is created if new.' }),
  features: t.Optional(Features),
  expiresAt: t.Optional(t.Union([FutureMillis, t.Null()], { description: 'Default: the product’s term. null = perpetual.' })),
}, { examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, features: ['pro'] }] });

export const IssuedLicense = t.Object({
  license: LicenseView,
  licenseKey: t.String({ description: 'Ed25519-signed compact JWS.' }),
}, {
  examples: [{
    license: { id: EXAMPLE.licenseId, productId: EXAMPLE.productId, customerId: EXAMPLE.customerId, status: 'active', features: ['pro'], issuedAt: EXAMPLE.time, expiresAt: null, machineFingerprint: null },
    licenseKey: EXAMPLE.licenseKey,
  }],
});

/** Refuses a pasted placeholder such as `3f…` instead of binding a license to it. */
const FINGERPRINT_PROBLEM =
  'machineFingerprint must be 1 to 256 visible ASCII characters, no spaces: the client library sends 64 lower-case hex digits. "3f…" in an example is a placeholder, not a fingerprint.';

export const ValidateBody = Input({
  licenseKey: t.String({ maxLength: MAX_KEY_LENGTH }),
  machineFingerprint: t.String({
    minLength: 1,
    maxLength: 256,
    pattern: '^[!-~]+$',
    description: 'What the license binds to. The client library sends 64 lower-case hex digits (SHA-256, docs/api-rules.md); any 1 to 256 visible ASCII characters are accepted.',
    error: FINGERPRINT_PROBLEM,
  }),
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint }] });

/**
 * The hot path's answer. Documented, and checked by the HTTP tests for every outcome, but not
 * re-validated at run time (noValidate): that check alone cost a tenth of each validation.
 */
export const ValidationResult = t.Union(
  [
  t.Object({
    valid: t.Literal(true),
    license: t.Object({
      id: t.String(),
      status: LicenseStatus,
      features: t.Array(t.String()),
      expiresAt: t.Union([Millis, t.Null()]),
      licenseKey: t.Optional(t.String({ description: 'Only when the key sent was replaced (renewed, or a trial converted): the license’s current key, which the client stores in its place. Inside the signed body. docs/renewals.md.' })),
    }),
  }),
  t.Object({
    valid: t.Literal(false),
    reason: literalUnion(VALIDATION_REASONS),
  }),
  ],
  {
    noValidate: true,
    examples: [
      { valid: true, license: { id: EXAMPLE.licenseId, status: 'active', features: ['pro'], expiresAt: null } },
      { valid: true, license: { id: EXAMPLE.licenseId, status: 'active', features: ['pro'], expiresAt: EXAMPLE.time, licenseKey: EXAMPLE.licenseKey } },
      { valid: false, reason: 'machine_mismatch' },
    ],
  },
);

export const RotatedKey = t.Object({ kid: t.String(), publicKey: t.String({ description: 'Raw Ed25519 public key, base64url.' }) });

export const Jwks = t.Object({
  keys: t.Array(
    t.Object({
      kty: t.Literal('OKP'),
      crv: t.Literal('Ed25519'),
      x: t.String(),
      kid: t.String(),
      alg: t.Literal('EdDSA'),
      use: t.Literal('sig'),
    }),
  ),
});

const ApiKeyScope = literalUnion(API_KEY_SCOPES, {
  description: 'secret (sk_…): everything; publishable (pk_…): validation and checkout only.',
});
export const NewApiKeyBody = Input({ scope: ApiKeyScope }, { examples: [{ scope: 'publishable' }] });
export const NewApiKey = t.Object({
  id: t.String(),
  scope: ApiKeyScope,
  key: t.String({ description: 'The key itself (sk_… or pk_…). Shown once: only its digest is stored.' }),
  createdAt: Millis,
});
export const ApiKeyView = t.Object({ id: t.String(), scope: ApiKeyScope, createdAt: Millis, revokedAt: t.Union([Millis, t.Null()]) });
export const ApiKeyList = t.Object({ data: t.Array(ApiKeyView) });

export const IdParams = Input({ id: t.String({ maxLength: 100 }) });

const ERROR_MEANING: Record<number, string> = {
  400: 'invalid_request: the body, query or path fails its schema, or the JSON is malformed.',
  401: 'unauthorized: no credential, or an unknown, expired or revoked one.',
  403: 'forbidden: a publishable key where a secret key is needed.',
  404: 'not_found: no such resource for this caller (other developers’ resources are 404 too).',
  402: 'card_declined: the charge was declined; authentication_required: the card needs its holder present.',
  409: 'conflict: the state forbids it (email_taken, not_connected, no_phone_on_file, activation_limit).',
  410: 'otp_expired: the code is past its 5 minutes.',
  413: 'payload_too_large: the body is over 64 KiB.',
  422: 'otp_invalid: wrong code (the challenge may still be used).',
  429: 'rate_limited or otp_attempts_exceeded, with a Retry-After header (seconds).',
  502: 'processor_error / sms_failed: the payment processor or the SMS provider could not be reached or refused the call.',
  503: 'unavailable: the store does not answer.',
};

/** Error responses of a route, for its OpenAPI entry: all share the contract's shape. */
export function errorsOf<const S extends readonly number[]>(...statuses: S): { [K in S[number]]: typeof ErrorBody } {
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorBody, description: ERROR_MEANING[s] }])) as never;
}

export const CheckoutInitBody = Input({
  productId: t.String({ maxLength: 100 }),
  email: t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Pre-fills the payment page.' })),
  successUrl: t.Optional(t.String({ maxLength: 2048, description: 'Absolute http(s) URL; default: GET /v1/checkout/success.' })),
  cancelUrl: t.Optional(t.String({ maxLength: 2048, description: 'Absolute http(s) URL; default: GET /v1/checkout/cancel.' })),
}, { examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, successUrl: 'https://app.example.com/thanks', cancelUrl: 'https://app.example.com/cart' }] });

export const CheckoutInitResponse = t.Object({
  sessionId: t.String(),
  checkoutUrl: t.String({ description: 'The hosted payment page (Stripe, or /v1/sandbox/checkout/:id in sandbox mode).' }),
});

export const CheckoutStatusResponse = t.Union([
  t.Object({ status: t.Literal('pending') }),
  t.Object({ status: t.Literal('expired') }),
  t.Object({
    status: t.Literal('complete'),
    licenseKey: t.String(),
    license: t.Object({
      id: t.String(),
      productId: t.String(),
      productName: t.String({ description: 'The product’s name now.' }),
      status: LicenseStatus,
      features: t.Array(t.String()),
      issuedAt: Millis,
      expiresAt: t.Union([Millis, t.Null()]),
    }),
  }),
]);

export const SessionParams = Input({ sessionId: t.String({ maxLength: 100 }) });

export const ConnectStatusResponse = t.Object({ connected: t.Boolean(), accountId: t.Optional(t.String()) });
export const ConnectStartResponse = t.Object({ url: t.String({ description: 'Open it in a browser to authorize the connection (valid 10 minutes, once).' }) });
export const ConnectCallbackQuery = Input({
  code: t.Optional(t.String({ maxLength: 512 })),
  state: t.Optional(t.String({ maxLength: 512 })),
  error: t.Optional(t.String({ maxLength: 200 })),
  error_description: t.Optional(t.String({ maxLength: 1000 })),
});
export const WebhookReceipt = t.Object({ received: t.Literal(true), duplicate: t.Optional(t.Literal(true)) });

/**
 * The same error entries as OpenAPI `responses`, for routes documented by hand (HTML pages,
 * redirects): a route's `response` schemas would replace their HTML and redirect entries.
 */
export function jsonErrors(...statuses: number[]) {
  return Object.fromEntries(
    Object.entries(errorsOf(...statuses)).map(([status, schema]) => [status, { description: schema.description, content: { 'application/json': { schema } } }]),
  );
}

export const LoginInitBody = Input({ email: t.String({ maxLength: EMAIL_MAX_LENGTH }) }, { examples: [{ email: EXAMPLE.buyerEmail }] });
export const CodeSent = t.Object({
  otpId: t.String(),
  phoneMasked: t.String({ description: 'All but the last four digits masked.' }),
  expiresIn: t.Integer({ description: 'Seconds the code stays valid (300).' }),
});
export const LoginVerifyBody = Input({
  email: t.String({ maxLength: EMAIL_MAX_LENGTH }),
  otpId: t.String({ maxLength: 100 }),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code.' }),
  deviceFingerprint: t.String({ minLength: 1, maxLength: 256, description: 'The identity token is bound to this device.' }),
}, { examples: [{ email: EXAMPLE.buyerEmail, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, deviceFingerprint: EXAMPLE.machineFingerprint }] });
export const CustomerLicense = t.Object({
  id: t.String(),
  productId: t.String(),
  productName: t.String(),
  status: LicenseStatus,
  features: t.Array(t.String()),
  issuedAt: Millis,
  expiresAt: t.Union([Millis, t.Null()]),
  licenseKey: t.String(),
});
export const LoginVerified = t.Object({
  identityToken: t.String({ description: 'Send as Authorization: Bearer; valid 30 days, until POST /auth/logout.' }),
  licenses: t.Array(CustomerLicense),
});
export const LoggedOut = t.Object({ loggedOut: t.Literal(true) });
export const PurchaseInitBody = Input({ productId: t.String({ maxLength: 100 }) }, { examples: [{ productId: EXAMPLE.productId }] });
export const PurchaseOffer = t.Object({
  purchaseId: t.String(),
  productId: t.String(),
  productName: t.String(),
  amount: t.Integer({ description: 'Minor units.' }),
  currency: t.String(),
  cards: t.Array(t.Object({ id: t.String(), brand: t.String(), last4: t.String(), expMonth: t.Integer(), expYear: t.Integer() })),
});
export const PurchaseOtpBody = Input({ purchaseId: t.String({ maxLength: 100 }) }, { examples: [{ purchaseId: EXAMPLE.purchaseId }] });
export const PurchaseConfirmBody = Input({
  purchaseId: t.String({ maxLength: 100 }),
  otpId: t.String({ maxLength: 100 }),
  otp: t.String({ maxLength: 20 }),
  cardId: t.String({ maxLength: 100 }),
}, { examples: [{ purchaseId: EXAMPLE.purchaseId, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, cardId: EXAMPLE.cardId }] });

/** The verified phone change (docs/customers.md): the code goes to the phone already on file. */
export const PhoneChangeBody = Input({
  phone: t.String({ maxLength: 32, description: 'The new phone: an optional + and 7 to 15 digits; spaces, dashes, dots and brackets are ignored.' }),
}, { examples: [{ phone: EXAMPLE.newPhone }] });
export const PhoneChangeVerifyBody = Input({
  otpId: t.String({ maxLength: 100 }),
  otp: t.String({ maxLength: 20, description: 'The 6-digit code texted to the phone on file.' }),
  phone: t.String({ maxLength: 32, description: 'The same new phone as in POST /customer/phone.' }),
}, { examples: [{ otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, phone: EXAMPLE.newPhone }] });
export const PhoneChanged = t.Object({ phoneMasked: t.String({ description: 'The new phone on file, all but the last four digits masked.' }) });
