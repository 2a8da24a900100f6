import { t } from 'elysia';
import { MACHINE_FILE_LIMITS } from '../../../../domain/machine-file.ts';
import { EXAMPLE } from '../../examples.ts';
import { Id, Input, Millis, Page, PageQuery } from '../../schemas.ts';
import { Activation, ACTIVATION_EXAMPLE, ProductScope, ValidateBody } from './schemas.ts';

/** TypeBox models of the machine-file routes (docs/machine-files.md). */

/** The buyer's license, as the portal route names it. */
export const CustomerLicenseParams = Input({ id: Id({ examples: [EXAMPLE.licenseId] }) });

const TtlDays = t.Optional(t.Number({
  minimum: MACHINE_FILE_LIMITS.minTtlDays,
  maximum: MACHINE_FILE_LIMITS.maxTtlDays,
  description: `Days the file is good for: default ${MACHINE_FILE_LIMITS.defaultTtlDays}, at least one hour (1/24), at most ${MACHINE_FILE_LIMITS.maxTtlDays}; never past the license's own end.`,
  'x-error': `ttlDays must be a number from 1/24 (one hour) to ${MACHINE_FILE_LIMITS.maxTtlDays}.`,
}));

const REQUEST_EXAMPLE = { licenseKey: EXAMPLE.licenseKey, machineFingerprint: EXAMPLE.machineFingerprint, productId: EXAMPLE.productId };

/** POST /licenses/machine-file, and the offline request file the seller's route takes as it is. */
export const MachineFileBody = Input({
  licenseKey: ValidateBody.properties.licenseKey,
  machineFingerprint: ValidateBody.properties.machineFingerprint,
  legacyFingerprint: ValidateBody.properties.legacyFingerprint,
  productId: ProductScope,
  ttlDays: TtlDays,
}, { examples: [REQUEST_EXAMPLE, { ...REQUEST_EXAMPLE, ttlDays: 7 }] });

const MACHINE_FILE_EXAMPLE = 'eyJhbGciOiJFZERTQSIsImtpZCI6ImtpZF8uLi4iLCJ0eXAiOiJsaWNlbnNpbmctbWFjaGluZS1maWxlK2p3cyJ9.eyJpZCI6Im1mXy4uLiJ9.c2lnbmF0dXJl';
const RECORD_EXAMPLE = {
  id: 'mf_3Kd8VxQ2tN7pLm4RbW9cZs',
  licenseId: EXAMPLE.licenseId,
  fingerprintHash: '5d41402abc4b2a76b9719d911017c592e1f6ab4b1b3a2b6f2a9e5c3d1b7f0a4c',
  issuedAt: EXAMPLE.time,
  expiresAt: EXAMPLE.time + 30 * 86_400_000,
};

export const MachineFileRecord = t.Object({
  id: t.String({ description: 'mf_…' }),
  licenseId: t.String(),
  fingerprintHash: t.String({ description: 'Lower-case hex SHA-256 of the machine fingerprint (the file carries no raw fingerprint).' }),
  issuedAt: Millis,
  expiresAt: Millis,
}, { examples: [RECORD_EXAMPLE] });

export const IssuedMachineFile = t.Object({
  machineFile: t.String({ description: 'The machine file: a compact JWS (alg EdDSA, typ licensing-machine-file+jws, the kid of the seller’s JWKS). Keep it on the machine as it is.' }),
  file: MachineFileRecord,
  activation: Activation,
}, { examples: [{ machineFile: MACHINE_FILE_EXAMPLE, file: RECORD_EXAMPLE, activation: ACTIVATION_EXAMPLE }] });

export const MachineFileList = Page(MachineFileRecord, 'machine files', { examples: [{ data: [RECORD_EXAMPLE], hasMore: false }] });

export const MachineFileListQuery = PageQuery('A machine file id (the last of the previous page): the page starts after it.');

