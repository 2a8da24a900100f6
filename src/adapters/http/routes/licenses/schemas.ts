import { t } from 'elysia';
import { MAX_EXPIRY } from '../../../../app/licenses/grant-license.ts';
import { LICENSE_LIST_LIMIT } from '../../../../app/licenses/list-licenses.ts';
import { ACTIVATION_LIMITS, ACTIVATION_MESSAGES } from '../../../../domain/activation.ts';
import { EMAIL_MAX_LENGTH } from '../../../../domain/developer.ts';
import { PRODUCT_ID_PATTERN, PRODUCT_SCOPE_LIMITS, PRODUCT_SCOPE_MESSAGE } from '../../../../domain/product.ts';
import { LICENSE_STATUSES, VALIDATION_REASONS } from '../../../../domain/license.ts';
import { MAX_KEY_LENGTH } from '../../../../domain/license-key.ts';
import { EXAMPLE, LICENSE_EXAMPLE } from '../../examples.ts';
import {
  CreatedAfter, CreatedBefore, Cursor, EntitlementCodes, ExactEmail, Features, Id, Input, Int, licenseFields, LicenseView, Limit, Millis, MillisOrNull, Page, ProductFilter,
} from '../../schemas.ts';
import { choiceError, literalUnion } from '../../vocabulary.ts';

/** TypeBox models of the license routes, the seller's and the holder's (docs/activations.md). Unknown request fields are ignored. */

const FutureMillis = Int({ minimum: 0, maximum: MAX_EXPIRY, description: 'Unix time in milliseconds.' });

export const GrantBody = Input({
  productId: Id(),
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The customer’s e-mail; the customer is created if new.' }),
  features: t.Optional(Features),
  expiresAt: t.Optional(t.Union([FutureMillis, t.Null()], { description: 'Default: the product’s term. null = perpetual.' })),
  notify: t.Optional(t.Boolean({ default: true, description: 'E-mail the customer a receipt with the key and how to activate it (default true); false sends nothing.' })),
}, { examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, features: ['pro'] }, { productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, notify: false }] });

/** GET /licenses/:id: the license, with its key for the owning developer's secret key only. */
export const LicenseDetails = t.Object({
  ...LicenseView.properties,
  licenseKey: t.Optional(t.String({ description: 'The license key (Ed25519-signed compact JWS): only for the owning developer’s secret key, never for a customer’s identity token.' })),
}, {
  examples: [{ ...LICENSE_EXAMPLE, licenseKey: EXAMPLE.licenseKey }, LICENSE_EXAMPLE],
});

export const ResendAnswer = t.Object({
  queued: t.Literal(true, { description: 'The receipt is in the mail outbox; it goes out within seconds, retried if the mail server refuses.' }),
}, { examples: [{ queued: true }] });

export const IssuedLicense = t.Object({
  license: LicenseView,
  licenseKey: t.String({ description: 'Ed25519-signed compact JWS.' }),
}, {
  examples: [{
    license: LICENSE_EXAMPLE,
    licenseKey: EXAMPLE.licenseKey,
  }],
});

/** Refuses a pasted placeholder such as `3f…` instead of binding a license to it. */
const FINGERPRINT_PROBLEM =
  'machineFingerprint must be 1 to 256 visible ASCII characters, no spaces: the client library sends 64 lower-case hex digits. "3f…" in an example is a placeholder, not a fingerprint.';

const ProductIdOfScope = t.String({ maxLength: PRODUCT_SCOPE_LIMITS.idMax, pattern: PRODUCT_ID_PATTERN, 'x-error': PRODUCT_SCOPE_MESSAGE });

/**
 * The application's product, or its editions: a key of any other product of the seller answers
 * exactly as an unknown key does. Optional, so applications from before it keep working.
 */
export const ProductScope = t.Optional(
  t.Union([ProductIdOfScope, t.Array(ProductIdOfScope, { minItems: 1, maxItems: PRODUCT_SCOPE_LIMITS.maxProducts })], {
    description: `The product this application is (prod_…), or a list of 1 to ${PRODUCT_SCOPE_LIMITS.maxProducts} (its editions). A key of any other product of yours is answered exactly as an unknown key: not_found, nothing bound, counted per client address. Absent: any of your products (older applications). The client library always sends it.`,
    examples: [EXAMPLE.productId],
    'x-error': PRODUCT_SCOPE_MESSAGE,
  }),
);

/** One id or a list, as the use cases take it. */
export const scopeOf = (productId: string | string[] | undefined): string[] | undefined => (productId === undefined ? undefined : Array.isArray(productId) ? productId : [productId]);

/**
 * What the application needs of the license besides its product (docs/entitlements.md): a license
 * lacking any asked code answers not_found with the missing codes, nothing bound.
 */
export const EntitlementScope = t.Optional(
  Input({
    entitlements: t.Optional(EntitlementCodes('scope.entitlements', 'Entitlement codes the application needs now (case-insensitive), at most 100.')),
  }, {
    description: 'Optional. scope.entitlements: codes this request needs; a license lacking any of them is answered not_found with missingEntitlements (the codes as asked), and nothing is bound. docs/entitlements.md.',
    examples: [{ entitlements: ['pro'] }],
  }),
);

/** The codes a request's scope asks for; undefined when it asks for none. */
export const askedEntitlements = (scope: { entitlements?: string[] } | undefined): string[] | undefined => scope?.entitlements;

export const ValidateBody = Input({
  licenseKey: t.String({ maxLength: MAX_KEY_LENGTH }),
  productId: ProductScope,
  scope: EntitlementScope,
  machineFingerprint: t.String({
    minLength: 1,
    maxLength: 256,
    pattern: '^[!-~]+$',
    description: 'What the license binds to. The client library sends 64 lower-case hex digits (SHA-256, docs/api-rules.md); any 1 to 256 visible ASCII characters are accepted.',
    'x-error': FINGERPRINT_PROBLEM,
  }),
  machineName: t.Optional(t.String({
    minLength: 1,
    maxLength: ACTIVATION_LIMITS.nameMax,
    pattern: '^[^\\u0000-\\u001f\\u007f]+$',
    description: 'The name the machine shows under when this validation binds it (its first validation on a free slot), e.g. its host name: as name in POST /licenses/activate. The client library sends the host name. Ignored once the machine is bound.',
    'x-error': 'machineName must be 1 to 100 characters without control characters.',
  })),
  legacyFingerprint: t.Optional(t.String({
    minLength: 1,
    maxLength: 256,
    pattern: '^[!-~]+$',
    description: 'The same machine’s fingerprint by the formula clients used before (host name, user, OS, architecture: docs/machine-files.md, "Migration"). When machineFingerprint holds no slot and this one does, that activation moves to machineFingerprint (same id, same slot, not counted as a deactivation). The client library sends it.',
    'x-error': 'legacyFingerprint must be 1 to 256 visible ASCII characters, no spaces.',
  })),
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, productId: EXAMPLE.productId, machineName: 'ada-laptop' }, { licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint }] });

/**
 * The hot path's answer. Documented, and checked by the HTTP tests for every outcome, but not
 * re-validated at run time (noValidate): that check alone cost a tenth of each validation.
 */
export const ValidationResult = t.Union(
  [
  t.Object({
    valid: t.Literal(true),
    license: t.Object({
      ...licenseFields('id', 'status', 'features'),
      expiresAt: MillisOrNull(),
      licenseKey: t.Optional(t.String({ description: 'Only when the key sent was replaced (renewed, or a trial converted): the license’s current key, which the client stores in its place. Inside the signed body. docs/renewals.md.' })),
    }),
  }),
  t.Object({
    valid: t.Literal(false),
    reason: literalUnion(VALIDATION_REASONS),
    missingEntitlements: t.Optional(t.Array(t.String(), { description: 'Only with reason not_found for a request with scope.entitlements: the asked codes this license lacks, as they were asked. Inside the signed body. docs/entitlements.md.' })),
  }),
  ],
  {
    noValidate: true,
    examples: [
      { valid: true, license: { id: EXAMPLE.licenseId, status: 'active', features: ['pro'], expiresAt: null } },
      { valid: true, license: { id: EXAMPLE.licenseId, status: 'active', features: ['pro'], expiresAt: EXAMPLE.time, licenseKey: EXAMPLE.licenseKey } },
      { valid: false, reason: 'machine_mismatch' },
      { valid: false, reason: 'not_found', missingEntitlements: ['sync'] },
    ],
  },
);

export const LicenseListQuery = Input({
  limit: Limit(LICENSE_LIST_LIMIT),
  startingAfter: Cursor('license'),
  productId: ProductFilter,
  email: ExactEmail,
  status: t.Optional(literalUnion(LICENSE_STATUSES, { description: 'As validation sees it now: expired = past expiresAt, not revoked. With status=expired the list is ordered by expiresAt, most recently expired first (the cursor follows that order); otherwise newest issued first.', 'x-error': choiceError('status', LICENSE_STATUSES) })),
  trial: t.Optional(t.Boolean({ description: 'true: only free trials; false: only paid or granted licenses.', 'x-error': 'trial must be true or false.' })),
  createdAfter: CreatedAfter,
  createdBefore: CreatedBefore,
});

export const DeveloperLicense = t.Composite([
  LicenseView,
  t.Object({
    customerEmail: t.String({ description: 'The e-mail of the customer who holds it.' }),
    trial: t.Boolean({ description: 'A free trial, not paid for (yet).' }),
    subscriptionId: t.Union([t.String(), t.Null()], { description: 'The subscription that renews it; null = one-off, granted or trial.' }),
  }),
]);

export const LicenseList = Page(DeveloperLicense, 'licenses', {
  examples: [
    {
      data: [
        {
          ...LICENSE_EXAMPLE,
          machineFingerprint: EXAMPLE.machineFingerprint,
          customerEmail: EXAMPLE.buyerEmail,
          trial: false,
          subscriptionId: null,
        },
      ],
      hasMore: false,
    },
  ],
});

const MachineFingerprint = ValidateBody.properties.machineFingerprint;
const LicenseKey = ValidateBody.properties.licenseKey;

const MaxMachines = t.Union([Int({ minimum: 1, maximum: ACTIVATION_LIMITS.maxMachinesMax }), t.Null()], {
  description: 'Machines this license may run on, 1 to 1000, or null for unlimited.',
  'x-error': ACTIVATION_MESSAGES.maxMachines,
});

/** An activation as the examples show it, in every answer that holds one. */
export const ACTIVATION_EXAMPLE = { id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time };

export const Activation = t.Object({
  id: t.String({ description: 'act_…' }),
  name: t.Union([t.String(), t.Null()], { description: 'The name the client gave, e.g. the host name; null = none.' }),
  machineFingerprint: t.String(),
  createdAt: Millis,
  lastSeenAt: Millis,
}, { examples: [ACTIVATION_EXAMPLE] });

export const ActivateBody = Input({
  licenseKey: LicenseKey,
  machineFingerprint: MachineFingerprint,
  legacyFingerprint: ValidateBody.properties.legacyFingerprint,
  productId: ProductScope,
  scope: EntitlementScope,
  name: t.Optional(t.Union([t.String({ minLength: 1, maxLength: ACTIVATION_LIMITS.nameMax, pattern: '^[^\\u0000-\\u001f\\u007f]+$', 'x-error': 'name must be 1 to 100 characters without control characters, or null.' }), t.Null()], {
    description: 'A human name for the machine, e.g. its host name (1 to 100 characters).',
  })),
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, name: 'ada-laptop', productId: EXAMPLE.productId }] });

export const DeactivateBody = Input({
  licenseKey: LicenseKey,
  machineFingerprint: MachineFingerprint,
  productId: ProductScope,
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, productId: EXAMPLE.productId }] });

/** The holder lists its license's machines: the license key is the proof. */
export const HeldActivationsBody = Input({ licenseKey: LicenseKey, productId: ProductScope }, { examples: [{ licenseKey: EXAMPLE.licenseKey, productId: EXAMPLE.productId }] });

export const ActivationReply = t.Object({ activation: Activation }, {
  examples: [{ activation: ACTIVATION_EXAMPLE }],
});

export const ActivationList = t.Object({
  licenseId: t.String(),
  maxMachines: t.Union([t.Number(), t.Null()], { description: 'null = unlimited.' }),
  data: t.Array(Activation, { description: 'Oldest first.' }),
}, {
  examples: [{
    licenseId: EXAMPLE.licenseId,
    maxMachines: 3,
    data: [ACTIVATION_EXAMPLE],
  }],
});

export const EntitlementsBody = Input({
  entitlements: EntitlementCodes('entitlements', 'The license’s own entitlements, besides its product’s: the license then holds the product’s current set plus these (case-insensitively distinct, first spelling kept; at most 100 in all). [] = the product’s set alone.'),
}, { examples: [{ entitlements: ['export', 'sync'] }] });

export const LicenseChangesBody = Input({ maxMachines: MaxMachines }, { examples: [{ maxMachines: 3 }] });

export const ActivationParams = Input({ id: Id(), activationId: Id({ examples: [EXAMPLE.activationId] }) });
