import { t } from 'elysia';
import { ACTIVATION_LIMITS, ACTIVATION_MESSAGES } from '../../domain/activation.ts';
import { EXAMPLE } from './examples.ts';
import { Millis, ValidateBody } from './schemas.ts';

/** TypeBox models of the activation routes (docs/activations.md). Unknown request fields are ignored, as elsewhere. */
const Input = <T extends Parameters<typeof t.Object>[0]>(properties: T, options: Parameters<typeof t.Object>[1] = {}) =>
  t.Object(properties, { additionalProperties: true, ...options });

const MachineFingerprint = ValidateBody.properties.machineFingerprint;
const LicenseKey = ValidateBody.properties.licenseKey;
const MaxMachines = t.Union([t.Number({ multipleOf: 1, minimum: 1, maximum: ACTIVATION_LIMITS.maxMachinesMax }), t.Null()], {
  description: 'Machines this license may run on, 1 to 1000, or null for unlimited.',
  error: ACTIVATION_MESSAGES.maxMachines,
});

export const Activation = t.Object({
  id: t.String({ description: 'act_…' }),
  name: t.Union([t.String(), t.Null()], { description: 'The name the client gave, e.g. the host name; null = none.' }),
  machineFingerprint: t.String(),
  createdAt: Millis,
  lastSeenAt: Millis,
}, { examples: [{ id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time }] });

export const ActivateBody = Input({
  licenseKey: LicenseKey,
  machineFingerprint: MachineFingerprint,
  name: t.Optional(t.Union([t.String({ minLength: 1, maxLength: ACTIVATION_LIMITS.nameMax, pattern: '^[^\\u0000-\\u001f\\u007f]+$', error: 'name must be 1 to 100 characters without control characters, or null.' }), t.Null()], {
    description: 'A human name for the machine, e.g. its host name (1 to 100 characters).',
  })),
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, name: 'ada-laptop' }] });

export const DeactivateBody = Input({
  licenseKey: LicenseKey,
  machineFingerprint: MachineFingerprint,
}, { examples: [{ licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint }] });

/** The holder lists its license's machines: the license key is the proof. */
export const HeldActivationsBody = Input({ licenseKey: LicenseKey }, { examples: [{ licenseKey: EXAMPLE.licenseKey }] });

export const ActivationReply = t.Object({ activation: Activation }, {
  examples: [{ activation: { id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time } }],
});

export const ActivationList = t.Object({
  licenseId: t.String(),
  maxMachines: t.Union([t.Number(), t.Null()], { description: 'null = unlimited.' }),
  data: t.Array(Activation, { description: 'Oldest first.' }),
}, {
  examples: [{
    licenseId: EXAMPLE.licenseId,
    maxMachines: 3,
    data: [{ id: EXAMPLE.activationId, name: 'ada-laptop', machineFingerprint: EXAMPLE.machineFingerprint, createdAt: EXAMPLE.time, lastSeenAt: EXAMPLE.time }],
  }],
});

export const LicenseChangesBody = Input({ maxMachines: MaxMachines }, { examples: [{ maxMachines: 3 }] });

export const ActivationParams = Input({ id: t.String({ maxLength: 100 }), activationId: t.String({ maxLength: 100, examples: [EXAMPLE.activationId] }) });
