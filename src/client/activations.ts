import { parseLicenseKey } from '../domain/license-key.ts';
import type { AnswerOp } from '../domain/signed-answer.ts';
import { NONCE_HEADER, newNonce, SIGNATURE_HEADER, verifyAnswer } from './answer.ts';
import { KEY_CHAIN_HEADER } from './trust.ts';
import type { CacheRecord } from './cache.ts';
import { ActivationLimitError, ApiError, type ActivationSlot } from './errors.ts';
import { networkError, type Http } from './http.ts';
import type { OfflineVerifier } from './offline.ts';
import { legacyField, scopeField } from './check.ts';
import { condemns } from './verdict.ts';

/** One machine holding a slot of the license (docs/activations.md). Times in ms. */
export interface MachineActivation {
  id: string;
  /** The name given at activation, e.g. the host name; null = none. */
  name: string | null;
  machineFingerprint: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface ActivateOptions {
  /** A human name for this machine, 1 to 100 characters without control characters (e.g. the host name). */
  name?: string | null;
}

export interface ActivationResult {
  activation: MachineActivation;
  /** true: this machine took a free slot now; false: it already held one (activate() is idempotent). */
  created: boolean;
}

export interface MachineActivations {
  licenseId: string;
  /** null = unlimited. */
  maxMachines: number | null;
  /** Oldest first; `thisMachine` marks the one whose fingerprint is this client's. */
  data: (MachineActivation & { thisMachine: boolean })[];
}

/** What the holder's calls need from the client: its key and cache, this machine, the seller's keys. */
export interface HolderContext {
  http: Http;
  apiKey: string;
  /** The application's products: sent with each call, so a key of another product is an unknown key. */
  productIds: readonly string[];
  verifier: OfflineVerifier;
  fingerprint: string;
  /** docs/machine-files.md, "Migration": sent along with activate, so a legacy binding moves. */
  legacyFingerprint?: string;
  load(): Promise<CacheRecord | null>;
  save(record: CacheRecord): Promise<void>;
}

/** POST /licenses/activate: a slot for this machine; a full license throws ActivationLimitError. */
export async function activateMachine(ctx: HolderContext, options: ActivateOptions = {}): Promise<ActivationResult> {
  const record = await storedKey(ctx);
  const name = options.name ?? undefined;
  const answer = await signedCall(ctx, 'activate', { licenseKey: record.licenseKey, machineFingerprint: ctx.fingerprint, ...legacyField(ctx.legacyFingerprint), ...(name === undefined ? {} : { name }) }, ctx.fingerprint);
  const activation = ownActivation(ctx, answer);
  // Bound here now; a cached "bound elsewhere" verdict is stale, so the next check() asks the server.
  const stale = record.verdict?.valid === false && record.verdict.reason === 'machine_mismatch';
  await ctx.save({ ...later(record, answer.serverTime), machineBound: true, machineFingerprint: ctx.fingerprint, ...(stale ? { answer: null } : {}) });
  return { activation, created: answer.status === 201 };
}

/**
 * POST /licenses/deactivate: frees this machine's slot. The key stays stored; the binding and the
 * last verdict are forgotten, so nothing cached says "valid here" any more. A revocation or expiry
 * on record stays: only a newer validation lifts it.
 */
export async function deactivateMachine(ctx: HolderContext): Promise<MachineActivation> {
  const record = await storedKey(ctx);
  const answer = await signedCall(ctx, 'deactivate', { licenseKey: record.licenseKey, machineFingerprint: ctx.fingerprint }, ctx.fingerprint);
  const activation = ownActivation(ctx, answer);
  await ctx.save({ ...later(record, answer.serverTime), machineBound: false, machineFingerprint: null, answer: condemns(record.verdict) ? record.answer : null });
  return activation;
}

/** POST /licenses/activations: the license's machines, the stored key as proof. */
export async function listMachines(ctx: HolderContext): Promise<MachineActivations> {
  const record = await storedKey(ctx);
  const parsed = parseLicenseKey(record.licenseKey);
  const licenseId = parsed.ok ? parsed.key.claims.id : null;
  // The listing names no machine, so its signed header carries none.
  const answer = await signedCall(ctx, 'activations', { licenseKey: record.licenseKey }, undefined);
  const list = listOf(answer.body);
  if (!list || list.licenseId !== licenseId) throw unverified(answer.status, 'The signed answer is not the list of this license’s machines.');
  if (answer.serverTime > (record.serverTime ?? 0)) await ctx.save(later(record, answer.serverTime));
  return { ...list, data: list.data.map((a) => ({ ...a, thisMachine: a.machineFingerprint === ctx.fingerprint })) };
}

export async function storedKey(ctx: Pick<HolderContext, 'load'>): Promise<CacheRecord> {
  const record = await ctx.load();
  if (!record) throw new TypeError('No license key is stored: call storeLicenseKey() (or checkout()) first.');
  return record;
}

export type Signed = { status: number; body: unknown; serverTime: number };

/**
 * POST /licenses/{op} (or `path`), whose 2xx answer is believed only when the seller signed it for
 * this request, this operation (a deactivate answer is no activation) and this machine.
 */
export async function signedCall(
  ctx: Pick<HolderContext, 'http' | 'apiKey' | 'productIds' | 'verifier'>,
  op: Exclude<AnswerOp, 'validate'>,
  body: Record<string, unknown>,
  machineFingerprint: string | undefined,
  path = `/licenses/${op}`,
): Promise<Signed> {
  const nonce = newNonce();
  const answer = await ctx.http.send('POST', path, { apiKey: ctx.apiKey, headers: { [NONCE_HEADER]: nonce }, body: { ...body, productId: scopeField(ctx.productIds) } });
  if (answer.kind === 'unreachable') throw networkError(answer.cause);
  if (answer.kind === 'error') throw limitError(answer.error) ?? answer.error;
  await ctx.verifier.trust.learnChain(answer.headers.get(KEY_CHAIN_HEADER)); // docs/key-rotation.md
  const signed = await verifyAnswer(ctx.verifier, answer.headers.get(SIGNATURE_HEADER), answer.text, { op, nonce, machineFingerprint });
  if (!signed.ok) throw unverified(answer.status, signed.message);
  return { status: answer.status, body: signed.body, serverTime: signed.serverTime };
}

export const unverified = (status: number, message: string) => new ApiError(status, 'unverified_answer', message);

/** The raised server-time mark: a signed answer's time counts like a validation's (docs/signed-answers.md). */
function later(record: CacheRecord, serverTime: number): CacheRecord {
  return { ...record, serverTime: Math.max(record.serverTime ?? 0, serverTime) };
}

function ownActivation(ctx: HolderContext, answer: Signed): MachineActivation {
  const activation = activationOf((answer.body as { activation?: unknown } | null)?.activation);
  if (!activation || activation.machineFingerprint !== ctx.fingerprint) throw unverified(answer.status, 'The signed answer is not this machine’s activation.');
  return activation;
}

/** 409 activation_limit, typed: the machines holding the slots. */
function limitError(error: ApiError): ActivationLimitError | null {
  if (error.status !== 409 || error.code !== 'activation_limit') return null;
  const details = (error.details ?? {}) as { maxMachines?: unknown; activations?: unknown };
  const maxMachines = typeof details.maxMachines === 'number' ? details.maxMachines : null;
  const slots = Array.isArray(details.activations) ? details.activations.filter(isSlot).map(({ id, name }) => ({ id, name })) : [];
  return new ActivationLimitError(error.message, maxMachines, slots);
}

function isSlot(value: unknown): value is ActivationSlot {
  const v = value as Partial<ActivationSlot> | null;
  return typeof v?.id === 'string' && (v.name === null || typeof v.name === 'string');
}

function activationOf(value: unknown): MachineActivation | null {
  const v = value as Partial<MachineActivation> | null | undefined;
  if (typeof v?.id !== 'string' || typeof v.machineFingerprint !== 'string' || !(v.name === null || typeof v.name === 'string')) return null;
  if (typeof v.createdAt !== 'number' || typeof v.lastSeenAt !== 'number') return null;
  return { id: v.id, name: v.name, machineFingerprint: v.machineFingerprint, createdAt: v.createdAt, lastSeenAt: v.lastSeenAt };
}

function listOf(body: unknown): { licenseId: string; maxMachines: number | null; data: MachineActivation[] } | null {
  const b = body as { licenseId?: unknown; maxMachines?: unknown; data?: unknown } | null;
  if (typeof b?.licenseId !== 'string' || !(b.maxMachines === null || typeof b.maxMachines === 'number') || !Array.isArray(b.data)) return null;
  const data = b.data.map(activationOf);
  return data.every((a) => a !== null) ? { licenseId: b.licenseId, maxMachines: b.maxMachines, data: data as MachineActivation[] } : null;
}
