import { t } from 'elysia';
import { EMAIL_MAX_LENGTH } from '../../domain/developer.ts';
import { ACTIVATION_LIMITS } from '../../domain/activation.ts';
import { Activation } from './activation-schemas.ts';
import { EXAMPLE } from './examples.ts';
import { LicenseView, ValidateBody } from './schemas.ts';

/** TypeBox models of POST /trials (docs/trials.md). Unknown request fields are ignored, as elsewhere. */
export const TrialBody = t.Object({
  productId: t.String({ maxLength: 100, error: 'productId must be a product id (prod_…).' }),
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The buyer’s e-mail: one trial per e-mail per product.', error: `email must be an e-mail address (at most ${EMAIL_MAX_LENGTH} characters).` }),
  machineFingerprint: ValidateBody.properties.machineFingerprint,
  name: t.Optional(t.Union([t.String({ minLength: 1, maxLength: ACTIVATION_LIMITS.nameMax, pattern: '^[^\\u0000-\\u001f\\u007f]+$', error: 'name must be 1 to 100 characters without control characters, or null.' }), t.Null()], {
    description: 'A human name for the machine, e.g. its host name (1 to 100 characters).',
  })),
}, {
  additionalProperties: true,
  examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, machineFingerprint: EXAMPLE.machineFingerprint, name: 'ada-laptop' }],
});

const TrialLicense = t.Composite([LicenseView, t.Object({ trial: t.Boolean({ description: 'true: a free trial, converted in place when bought.' }) })]);

export const StartedTrial = t.Object({
  license: TrialLicense,
  licenseKey: t.String({ description: 'Ed25519-signed compact JWS, like a sold license’s; its expiresAt is the trial’s end.' }),
  activation: Activation,
}, {
  examples: [{
    license: { id: EXAMPLE.licenseId, productId: EXAMPLE.productId, customerId: EXAMPLE.customerId, status: 'active', features: ['pro'], issuedAt: EXAMPLE.time, expiresAt: EXAMPLE.time + 14 * 86_400_000, machineFingerprint: EXAMPLE.machineFingerprint, trial: true },
    licenseKey: EXAMPLE.licenseKey,
    activation: { id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time },
  }],
});
