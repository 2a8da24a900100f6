import { t, type TSchema } from 'elysia';
import { EMAIL_MAX_LENGTH } from '../../domain/developer.ts';
import { LICENSE_STATUSES } from '../../domain/license.ts';
import { ENTITLEMENT_CODE_PATTERN, ENTITLEMENT_LIMITS, entitlementsMessage } from '../../domain/entitlements.ts';
import { SECURITY } from './auth.ts';
import { EXAMPLE } from './examples.ts';
import { literalUnion } from './vocabulary.ts';

/** TypeBox models: the one source of request/response types and of the OpenAPI document. */
export const ErrorBody = t.Object(
  {
    error: t.Object({
      code: t.String({ description: 'Stable snake_case code.' }),
      message: t.String({ description: 'A human sentence.' }),
      details: t.Optional(t.Record(t.String(), t.Unknown())),
      requestId: t.Optional(t.String({ description: 'The request’s id, as in the X-Request-Id response header: quote it when reporting a problem. Added by the server to every error it answers.' })),
    }),
  },
  { title: 'Error' },
);

/**
 * Whole numbers in JSON bodies. Elysia's t.Integer also accepts numeric strings ("1999", "0x10") and
 * converts them; a JSON API should not guess, so bodies use a strict number with multipleOf 1.
 */
export const Int = (options: { minimum?: number; maximum?: number; description?: string; 'x-error'?: string } = {}) => t.Number({ multipleOf: 1, ...options });

/**
 * Request objects: unknown fields are ignored, not refused, so clients can send more than this
 * version knows (use cases read only the fields they name).
 */
type Properties = Parameters<typeof t.Object>[0];
export const Input = <T extends Properties>(properties: T, options: Parameters<typeof t.Object>[1] = {}) =>
  t.Object(properties, { additionalProperties: true, ...options });

export const Millis = Int({ description: 'Unix time in milliseconds.' });
/** A time that may not have come (an expiry, a revocation, a next attempt). */
export const MillisOrNull = (description?: string) => t.Union([Millis, t.Null()], description ? { description } : {});
/** Ids in paths, queries and bodies: bounded, so nothing longer is ever looked up. */
export const Id = (options: Parameters<typeof t.String>[0] = {}) => t.String({ maxLength: 100, ...options });
/** A list of entitlement codes (docs/entitlements.md), its problems told in `field`'s name. */
export const EntitlementCodes = (field: string, description: string) =>
  t.Array(t.String({ minLength: 1, maxLength: ENTITLEMENT_LIMITS.codeMax, pattern: ENTITLEMENT_CODE_PATTERN, 'x-error': entitlementsMessage(field) }), {
    maxItems: ENTITLEMENT_LIMITS.max,
    description,
    'x-error': entitlementsMessage(field),
  });
export const Features = EntitlementCodes('features', 'Entitlements (codes compared case-insensitively, the first spelling kept; docs/entitlements.md); may be empty.');
export const LicenseStatus = literalUnion(LICENSE_STATUSES);

/** The license as its seller sees it. */
export const LicenseView = t.Object({
  id: t.String(),
  productId: t.String(),
  customerId: t.String(),
  status: LicenseStatus,
  features: t.Array(t.String()),
  issuedAt: Millis,
  expiresAt: MillisOrNull('null = perpetual.'),
  machineFingerprint: t.Union([t.String(), t.Null()], { description: 'The machine the license is bound to; null = unbound.' }),
});

export const IdParams = Input({ id: Id() });

type LicenseField = keyof typeof LicenseView.properties;
/** Fields of the license view, for the license's other views (the buyer's, a list's, checkout's). */
export const licenseFields = <K extends LicenseField>(...keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, LicenseView.properties[key]])) as Pick<typeof LicenseView.properties, K>;

const ERROR_MEANING: Record<number, string> = {
  400: 'invalid_request: the body, query or path fails its schema, or the JSON is malformed.',
  401: 'unauthorized: no credential, or an unknown, expired or revoked one.',
  403: 'forbidden: a publishable key where a secret key is needed.',
  404: 'not_found: no such resource for this caller (other developers’ resources are 404 too).',
  402: 'card_declined: the charge was declined; authentication_required: the card needs its holder present.',
  409: 'conflict: the state forbids it (email_taken, not_connected, no_phone_on_file, activation_limit, lease_limit, lease_borrowed).',
  410: 'otp_expired: the code is past its 5 minutes.',
  413: 'payload_too_large: the body is over 64 KiB.',
  422: 'otp_invalid: wrong code (the challenge may still be used).',
  429: 'rate_limited or otp_attempts_exceeded, with a Retry-After header (seconds).',
  502: 'processor_error / sms_failed / mail_failed: the payment processor, the SMS provider or the mail relay could not be reached or refused the call.',
  503: 'unavailable: the store does not answer.',
};

/** Error responses of a route, for its OpenAPI entry: all share the contract's shape. */
export function errorsOf<const S extends readonly number[]>(...statuses: S): { [K in S[number]]: typeof ErrorBody } {
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorBody, description: ERROR_MEANING[s] }])) as never;
}

/**
 * The options of a seller's read with a query string (a list, the figures): a secret key or a
 * console session; 400 for a query it refuses, 401 and 403 as on every seller route.
 */
export const sellerRead = <Q extends TSchema, A extends TSchema>(query: Q, answer: A, detail: { tags: string[]; summary: string; description: string }) => ({
  query,
  response: { 200: answer, ...errorsOf(400, 401, 403) },
  detail: { ...detail, security: SECURITY.secret },
});

/** The options of a seller's read of one object by id: 404 for an unknown id or another seller's object. */
export const sellerGet = <P extends TSchema, A extends TSchema>(params: P, answer: A, detail: { tags: string[]; summary: string; description?: string }) => ({
  params,
  response: { 200: answer, ...errorsOf(400, 401, 403, 404) },
  detail: { ...detail, security: SECURITY.secret },
});

/** The options of a signed-in customer's read (their licenses, subscriptions, orders): an identity token on its device. */
export const customerRead = <A extends TSchema>(answer: A, detail: { tags: string[]; summary: string; description: string }) => ({
  response: { 200: answer, ...errorsOf(400, 401) },
  detail: { ...detail, security: SECURITY.customer },
});

/** An HTML answer's OpenAPI entry, for pages (documented by hand, like jsonErrors). */
export const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });

/**
 * The same error entries as OpenAPI `responses`, for routes documented by hand (HTML pages,
 * redirects): a route's `response` schemas would replace their HTML and redirect entries.
 */
export function jsonErrors(...statuses: number[]) {
  return Object.fromEntries(
    Object.entries(errorsOf(...statuses)).map(([status, schema]) => [status, { description: schema.description, content: { 'application/json': { schema } } }]),
  );
}

// The seller's lists. Unknown parameters are ignored; bounds are checked by the use cases, so their
// 400 names the field. Every list is a keyset page: startingAfter = the last id seen.
export const Limit = (bounds: { default: number; max: number }) =>
  t.Optional(t.Integer({ description: `Page size, 1 to ${bounds.max} (default ${bounds.default}).`, examples: [20], 'x-error': `limit must be a whole number from 1 to ${bounds.max}.` }));

export const Cursor = (what: string) =>
  t.Optional(Id({ description: `A ${what} id (the last of the previous page): the page starts after it.`, 'x-error': 'startingAfter must be an id of at most 100 characters.' }));

export const ProductFilter = t.Optional(Id({ description: 'Only this product’s.', examples: [EXAMPLE.productId], 'x-error': 'productId must be an id of at most 100 characters.' }));

export const ExactEmail = t.Optional(t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Only this customer’s (the whole e-mail, case-insensitive).', examples: [EXAMPLE.buyerEmail], 'x-error': `email must be an e-mail address of at most ${EMAIL_MAX_LENGTH} characters.` }));

export const CreatedAfter = t.Optional(t.Integer({ minimum: 0, description: 'Created at or after this Unix millisecond (inclusive).', examples: [EXAMPLE.time], 'x-error': 'createdAfter must be a time in Unix milliseconds.' }));

export const CreatedBefore = t.Optional(t.Integer({ minimum: 0, description: 'Created before this Unix millisecond (exclusive), so [createdAfter, createdBefore) ranges tile.', 'x-error': 'createdBefore must be a time in Unix milliseconds.' }));

/**
 * A list without filters: page size and cursor. Bounds are checked by the use case (Elysia's query
 * coercion would report them without the field name); no cursor example, as a cursor comes from
 * the previous page and one naming nothing of the caller's is refused.
 */
export const PageQuery = (cursor: string) =>
  Input({
    limit: t.Optional(t.Integer({ description: 'Page size, 1 to 100 (default 20).', examples: [20] })),
    startingAfter: t.Optional(Id({ description: cursor })),
  });

/** A keyset page of a list; `what` names the items in hasMore's description. */
export const Page = <T extends Parameters<typeof t.Array>[0]>(item: T, what?: string, options: Parameters<typeof t.Object>[1] = {}) =>
  t.Object({ data: t.Array(item), hasMore: what ? t.Boolean({ description: `More ${what} after the last one: pass its id as startingAfter.` }) : t.Boolean() }, options);
