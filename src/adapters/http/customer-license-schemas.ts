import { t } from 'elysia';
import { Activation } from './activation-schemas.ts';
import { EXAMPLE } from './examples.ts';
import { CustomerLicense } from './schemas.ts';

/** TypeBox models of the buyer's self-service routes (docs/activations.md, "Buyer self-service"). */

const machine = { id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time };

export const LicenseWithMachines = t.Object({
  ...CustomerLicense.properties,
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
      status: 'active',
      features: ['pro'],
      issuedAt: EXAMPLE.time,
      expiresAt: null,
      licenseKey: EXAMPLE.licenseKey,
      maxMachines: 2,
      activations: [machine],
    }],
  }],
});

/** Unknown fields are ignored, as elsewhere; ids are bounded so nothing longer is looked up. */
export const CustomerActivationParams = t.Object({
  id: t.String({ maxLength: 100, examples: [EXAMPLE.licenseId] }),
  activationId: t.String({ maxLength: 100, examples: [EXAMPLE.activationId] }),
}, { additionalProperties: true });
