import { ConflictError, InvalidRequestError, NotFoundError, RateLimitedError } from '../../domain/errors.ts';
import { utf8, encodeBase64url } from '../../domain/base64url.ts';
import { MACHINE_FILE_LIMITS, machineFileExpiry, machineFileSigningInput, type MachineFileClaims, type MachineFileRecord } from '../../domain/machine-file.ts';
import { inProductScope } from '../../domain/product.ts';
import { sha256Hex } from '../../domain/sha256.ts';
import type { Deps } from '../../ports/deps.ts';
import type { LicenseState } from '../../ports/license-repository.ts';
import { bindMachine, heldLicense, type HolderCall } from '../licenses/activations.ts';
import type { Activation } from '../../domain/activation.ts';

type IssueDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'licenses' | 'products' | 'rateLimiter' | 'settings' | 'signer' | 'signingKeys' | 'machineFiles'>;

export interface MachineFileRequest {
  licenseKey: string;
  machineFingerprint: string;
  /** docs/machine-files.md, "Migration". */
  legacyFingerprint?: string;
  ttlDays?: number;
}

export interface IssuedMachineFile {
  /** The compact JWS the machine keeps. */
  machineFile: string;
  file: MachineFileRecord;
  activation: Activation;
}

const TTL_PROBLEM = `ttlDays must be a number from ${MACHINE_FILE_LIMITS.minTtlDays.toFixed(4)} (one hour) to ${MACHINE_FILE_LIMITS.maxTtlDays}.`;

/** The holder's request (the license key as proof, counted like a validation). */
export async function issueMachineFile(deps: IssueDeps, call: HolderCall, input: MachineFileRequest): Promise<IssuedMachineFile> {
  return issueFor(deps, await heldLicense(deps, call, input.licenseKey), input);
}

/**
 * The seller's: an offline request file (the key, the machine, the product) brought by the buyer of
 * a machine with no network. The key must be one of `licenseId`'s, a license of the caller's.
 */
export async function issueMachineFileForSeller(deps: IssueDeps, developerId: string, licenseId: string, input: MachineFileRequest & { productIds?: readonly string[] }): Promise<IssuedMachineFile> {
  return issueFor(deps, await requestedLicense(deps, licenseId, input, (state) => state.developerId === developerId), input);
}

/**
 * The buyer's, from their portal: the same offline request file, for one of the signed-in
 * customer's own licenses (another's, or a key that is not this license's current one: 404).
 */
export async function issueMachineFileForCustomer(deps: IssueDeps, customerId: string, licenseId: string, input: MachineFileRequest & { productIds?: readonly string[] }): Promise<IssuedMachineFile> {
  const owned = async () => (await deps.licenses.findById(licenseId))?.customerId === customerId;
  return issueFor(deps, await requestedLicense(deps, licenseId, input, owned), input);
}

/** License `licenseId` by the key its request file carries, when the caller `owns` it and it is of the products named; 404 otherwise. */
async function requestedLicense(
  deps: IssueDeps,
  licenseId: string,
  input: MachineFileRequest & { productIds?: readonly string[] },
  owns: (state: LicenseState) => boolean | Promise<boolean>,
): Promise<LicenseState> {
  const state = await deps.licenses.findStateByKeyHash(deps.hashing.hash(input.licenseKey));
  if (!state || state.id !== licenseId || !inProductScope(state.productId, input.productIds) || !(await owns(state))) throw new NotFoundError('license with this key');
  return state;
}

/**
 * Binds the machine as an activation does (an already bound machine keeps its slot), signs the file
 * with the seller's current key, then records it: the store refuses it past the per-license daily
 * limit, counted in the same transaction as the insert.
 */
async function issueFor(deps: IssueDeps, license: LicenseState, input: MachineFileRequest): Promise<IssuedMachineFile> {
  const now = deps.clock.now();
  const expiresAt = machineFileExpiry(now, input.ttlDays, license.expiresAt);
  if (expiresAt === null) throw new InvalidRequestError(TTL_PROBLEM, 'ttlDays');
  const { activation } = await bindMachine(deps, license, { machineFingerprint: input.machineFingerprint, legacyFingerprint: input.legacyFingerprint });
  const file: MachineFileRecord = { id: deps.ids.next('mf'), licenseId: license.id, fingerprintHash: await sha256Hex(input.machineFingerprint), issuedAt: now, expiresAt };
  const machineFile = await sign(deps, license, file);
  const outcome = await deps.machineFiles.record(file, { limit: MACHINE_FILE_LIMITS.perDay, windowMs: MACHINE_FILE_LIMITS.windowMs });
  if (outcome.kind === 'missing') throw new NotFoundError('license with this key');
  if (outcome.kind === 'limited') {
    const seconds = Math.max(1, Math.ceil((outcome.retryAt - now) / 1000));
    throw new RateLimitedError('rate_limited', `At most ${MACHINE_FILE_LIMITS.perDay} machine files per license in 24 hours; the next one is allowed at ${new Date(outcome.retryAt).toISOString()}.`, seconds);
  }
  return { machineFile, file, activation };
}

async function sign(deps: Pick<Deps, 'signer' | 'signingKeys' | 'settings'>, license: LicenseState, file: MachineFileRecord): Promise<string> {
  const key = await deps.signingKeys.active(license.developerId, file.issuedAt);
  if (!key) throw new ConflictError('conflict', 'The developer has no active signing key.');
  const claims: MachineFileClaims = {
    iss: deps.settings.issuer,
    sub: license.developerId,
    id: file.id,
    licenseId: license.id,
    productId: license.productId,
    features: license.features,
    fingerprintHash: file.fingerprintHash,
    issuedAt: file.issuedAt,
    expiresAt: file.expiresAt,
    licenseExpiresAt: license.expiresAt,
  };
  const input = machineFileSigningInput(key.kid, claims);
  return `${input}.${encodeBase64url(deps.signer.sign(key.sealedPrivateKey, utf8.encode(input)))}`;
}
