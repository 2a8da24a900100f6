import type { CacheRecord, StoredAnswer } from './cache.ts';
import { NONCE_HEADER, newNonce, SIGNATURE_HEADER, verifyAnswer } from './answer.ts';
import { ApiError } from './errors.ts';
import { networkError, type Http } from './http.ts';
import { detailsFromClaims } from './license-details.ts';
import { entitlementSources, lacking } from './entitlements.ts';
import type { OfflineVerdict, OfflineVerifier } from './offline.ts';
import { adoptOfferedKey } from './renewal.ts';
import { KEY_CHAIN_HEADER } from './trust.ts';
import type { LicenseClaims } from '../domain/license-key.ts';
import { LICENSE_STATUSES } from '../domain/license.ts';
import { isOneOf } from '../domain/vocabulary.ts';
import { CACHE_REFRESH_MS, NEVER_VERIFIED_ONLINE, type CheckWarning, type InvalidCheckResult, type InvalidReason, type LicenseCheckResult, type LicenseDetails, type ValidCheckResult } from './types.ts';
import { onlineVerdict, type OnlineVerdict } from './verdict.ts';

export interface CheckContext {
  http: Http;
  apiKey: string;
  /** The application's products: a key of any other is not_found, offline and online. */
  productIds: readonly string[];
  verifier: OfflineVerifier;
  now: number;
  fingerprint: string;
  /** Sent with the validation that may bind this machine: the name it shows under (its host name). */
  machineName?: string;
  /** This machine's fingerprint by the formula used before (docs/machine-files.md, "Migration"): sent along, and a binding to it is this machine's. */
  legacyFingerprint?: string;
  maxOfflineDays?: number;
  /** How far the system clock may fall behind the highest server time seen before check() distrusts it. */
  clockToleranceMs: number;
  /** Skip the 24-hour cache and the cached binding: the server's verdict is wanted now. */
  online?: boolean;
  /** scope.entitlements (docs/entitlements.md): codes this check needs; a license lacking any is not_found with missingEntitlements. */
  entitlements?: readonly string[];
  onError?: (error: ApiError) => void;
  load(): Promise<CacheRecord | null>;
  save(record: CacheRecord): Promise<void>;
}

const DAY_MS = 86_400_000;

/** SPEC.md section 1, "Client-side verification flow", steps 1 to 5. */
export async function checkLicense(ctx: CheckContext): Promise<LicenseCheckResult> {
  // 1. The stored key.
  const record = await ctx.load();
  if (!record) return invalid('not_found', false);

  // 2. Offline: structure, kid, signature, expiry, and the binding this cache last heard of. A
  //    genuine key past its expiry may have been renewed (docs/renewals.md): asked to go online,
  //    the server is asked, and may hand over the current key.
  const offline = await ctx.verifier.verify(record.licenseKey, ctx.now);
  if (!offline.ok && (offline.reason !== 'expired' || !ctx.online)) return invalid(offline.reason, false);
  // A genuine key of the seller's other product (a cheaper edition, a trial of another app) opens nothing here.
  if (!ctx.productIds.includes(offline.claims.productId)) return invalid('not_found', false);
  const expired = !offline.ok;
  const elsewhere = boundElsewhere(record, ctx.fingerprint, ctx.legacyFingerprint);
  if (elsewhere && !ctx.online) return elsewhere;
  const license = detailsFromClaims(offline.claims, { status: record.license?.status, productName: record.license?.productName });
  // A clock set back behind what the server has said, or behind what this clock showed when it
  // accepted a machine file (docs/machine-files.md), cannot date anything: only the server can.
  const highestSeen = Math.max(record.serverTime ?? 0, record.seenAt ?? 0);
  const rolledBack = highestSeen > 0 && ctx.now < highestSeen - ctx.clockToleranceMs;

  // 3. Refreshed less than 24 hours ago: the cached verdict, no network.
  //    A code the cached evidence lacks may have been granted since: then the service is asked.
  if (!ctx.online && !rolledBack && record.refreshedAt !== null && ctx.now - record.refreshedAt < CACHE_REFRESH_MS && record.verdict) {
    const cached = fromCache(record, license);
    if (!cached.valid || (await lackingHere(ctx, record, offline)).length === 0) return cached;
  }

  // 4. Online: any signed verdict (valid or not) is believed and cached.
  const answer = await askServer(ctx, record, offline.claims.id);
  if (answer.verdict) {
    // The license lacks what this check asked for: said to this check alone, nothing remembered.
    if (!answer.verdict.valid && answer.verdict.missingEntitlements) return { ...invalid('not_found', false), missingEntitlements: answer.verdict.missingEntitlements };
    // The newer signed answer replaces the last one: it alone lifts a revocation or expiry on record.
    const seen = { ...record, answer: answer.signed, serverTime: Math.max(record.serverTime ?? 0, answer.serverTime) };
    if (answer.verdict.valid) return believeValid(ctx, seen, offline.claims, license, answer.verdict, expired);
    return believe(ctx, seen, license, answer.verdict);
  }
  const offlineAnswer = offlineResult(ctx, record, license, answer, { expired, rolledBack, elsewhere });
  const result = offlineAnswer.valid ? scoped(offlineAnswer, await lackingHere(ctx, record, offline)) : offlineAnswer;
  // Never once confirmed by the service on this machine: still step 5's answer, but the application is told.
  return result.warning || record.answer ? result : { ...result, warning: NEVER_CONFIRMED };
}

/** Set on a check whose license has never had a signed answer from the service on this machine. */
export const NEVER_CONFIRMED: CheckWarning = {
  status: 0,
  code: NEVER_VERIFIED_ONLINE,
  message: 'The licensing service has never confirmed this license on this machine: this result rests on the key alone (step 5).',
};

function offlineResult(
  ctx: CheckContext,
  record: CacheRecord,
  license: LicenseDetails,
  answer: Extract<ServerAnswer, { error: ApiError }>,
  state: { expired: boolean; rolledBack: boolean; elsewhere: LicenseCheckResult | null },
): LicenseCheckResult {
  const { expired, rolledBack, elsewhere } = state;

  // 5. Unreachable, timed out, 5xx, 4xx (a wrong API key is not the buyer's fault) or nonsense:
  //    the offline result, left uncached so the next check asks again; a refusal is surfaced.
  //    An answer that is not signed for this request counts as no answer.
  report(ctx, answer.error);
  if (expired) return answer.warning ? { ...invalid('expired', false), warning: answer.warning } : invalid('expired', false);
  const result = rolledBack ? { ...invalid('network_error', false), clockRollback: true } : (elsewhere ?? offlineFallback(ctx, record, license));
  return answer.warning ? { ...result, warning: answer.warning } : result;
}

type ServerAnswer = { verdict: OnlineVerdict; serverTime: number; signed: StoredAnswer; error?: undefined; warning?: undefined } | { verdict?: undefined; error: ApiError; warning?: CheckWarning };

/**
 * POST /licenses/validate with a fresh nonce, sorted into a verdict (signed by the seller for this
 * request, this machine and this license), or a failure and whether it is the caller's setup.
 */
async function askServer(ctx: CheckContext, record: CacheRecord, licenseId: string): Promise<ServerAnswer> {
  const nonce = newNonce();
  const answer = await ctx.http.send('POST', '/licenses/validate', {
    apiKey: ctx.apiKey,
    headers: { [NONCE_HEADER]: nonce },
    body: {
      licenseKey: record.licenseKey,
      machineFingerprint: ctx.fingerprint,
      ...legacyField(ctx.legacyFingerprint),
      productId: scopeField(ctx.productIds),
      ...(ctx.machineName ? { machineName: ctx.machineName } : {}),
      ...(ctx.entitlements?.length && { scope: { entitlements: ctx.entitlements } }),
    },
  });
  if (answer.kind === 'unreachable') return { error: networkError(answer.cause) };
  if (answer.kind === 'error') return { error: answer.error, warning: isRefusal(answer.error.status) ? warningOf(answer.error) : undefined };
  if (!onlineVerdict(answer.body)) return refused(new ApiError(answer.status, 'invalid_response', `${answer.status} from the licensing service was not a validation result: is baseUrl the service's address?`));
  await ctx.verifier.trust.learnChain(answer.headers.get(KEY_CHAIN_HEADER)); // docs/key-rotation.md
  const signed = await verifyAnswer(ctx.verifier, answer.headers.get(SIGNATURE_HEADER), answer.text, { op: 'validate', nonce, machineFingerprint: ctx.fingerprint });
  if (!signed.ok) return refused(new ApiError(answer.status, 'unverified_answer', signed.message));
  const verdict = onlineVerdict(signed.body);
  if (!verdict || (verdict.valid && verdict.licenseId !== licenseId)) return refused(new ApiError(answer.status, 'unverified_answer', 'The signed answer is about another license.'));
  // Kept as it came, so the cache can prove it again on every load (memory.ts).
  const kept = { signature: answer.headers.get(SIGNATURE_HEADER)!, text: answer.text, nonce, receivedAt: ctx.now };
  return { verdict, serverTime: signed.serverTime, signed: kept };
}

/** The codes this check asks for that this machine's verified evidence lacks (entitlements.ts); none asked: none. */
async function lackingHere(ctx: CheckContext, record: CacheRecord, key: OfflineVerdict): Promise<string[]> {
  if (!ctx.entitlements?.length) return [];
  return lacking(await entitlementSources({ record, key, now: ctx.now }), ctx.entitlements);
}

/** A valid offline answer for a license lacking asked codes: not_found for this check, as the service says it. */
function scoped(result: ValidCheckResult, missing: string[]): LicenseCheckResult {
  if (missing.length === 0) return result;
  const { valid: _valid, license: _license, ...rest } = result;
  return { ...rest, valid: false, reason: 'not_found', missingEntitlements: missing };
}

/** One product as a string, editions as a list: what the request's productId takes. */
/** Sent only when there is one: older services ignore the field, newer ones move a legacy binding. */
export function legacyField(legacyFingerprint: string | undefined): { legacyFingerprint?: string } {
  return legacyFingerprint === undefined ? {} : { legacyFingerprint };
}

export function scopeField(productIds: readonly string[]): string | readonly string[] {
  return productIds.length === 1 ? productIds[0]! : productIds;
}

function refused(error: ApiError): ServerAnswer {
  return { error, warning: warningOf(error) };
}

/**
 * A 4xx other than 408 and 429 will not go away by asking again: the key, the URL or the request
 * is wrong, so the server will neither bind nor revoke until the application is fixed.
 */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function warningOf(error: ApiError): CheckWarning {
  return { status: error.status, code: error.code, message: error.message };
}

/** The application's hook must not turn a check into an exception. */
function report(ctx: CheckContext, error: ApiError): void {
  try {
    ctx.onError?.(error);
  } catch {}
}

/**
 * A valid verdict that hands over the license's current key: the key is verified offline and stored
 * in place of the old one, and the result is the new key's. A key that does not verify is ignored
 * (with a warning). A key expired by this clock stays expired whatever the server says.
 */
async function believeValid(
  ctx: CheckContext,
  record: CacheRecord,
  held: LicenseClaims,
  license: LicenseDetails,
  verdict: Extract<OnlineVerdict, { valid: true }>,
  expired: boolean,
): Promise<LicenseCheckResult> {
  const adopted = verdict.licenseKey === undefined ? null : await adoptOfferedKey(ctx.verifier, held, verdict.licenseKey, ctx.now);
  if (!adopted?.ok) {
    const extra = adopted ? { warning: adopted.warning } : {};
    return expired ? { ...invalid('expired', false), ...extra } : { ...(await believe(ctx, record, license, verdict)), ...extra };
  }
  const renewed = { ...record, licenseKey: adopted.licenseKey };
  const details = detailsFromClaims(adopted.claims, { productName: license.productName });
  if (!adopted.expired) return { ...(await believe(ctx, renewed, details, verdict)), renewedLicenseKey: adopted.licenseKey };
  await ctx.save(renewed);
  return { ...invalid('expired', false), renewedLicenseKey: adopted.licenseKey };
}

async function believe(ctx: CheckContext, record: CacheRecord, license: LicenseDetails, verdict: OnlineVerdict): Promise<LicenseCheckResult> {
  if (verdict.valid) {
    const fresh = { ...license, status: verdict.status };
    await ctx.save({ ...record, refreshedAt: ctx.now, lastValidAt: ctx.now, license: fresh, machineBound: true, machineFingerprint: ctx.fingerprint, verdict: { valid: true } });
    return { valid: true, license: fresh, offlineVerified: false, machineBound: true, machineFingerprint: ctx.fingerprint };
  }
  // The server is believed: revoked, expired or bound elsewhere stays so for the next 24 hours.
  const status = isOneOf(LICENSE_STATUSES, verdict.reason) ? verdict.reason : (record.license?.status ?? 'active');
  // A mismatch means bound, but to a machine this client cannot name.
  const mismatch = verdict.reason === 'machine_mismatch';
  const binding = mismatch ? { machineBound: true, machineFingerprint: null } : {};
  await ctx.save({ ...record, ...binding, refreshedAt: ctx.now, license: { ...license, status }, verdict: { valid: false, reason: verdict.reason } });
  return mismatch ? { ...invalid(verdict.reason, false), machineBound: true } : invalid(verdict.reason, false);
}

/** The cache last heard the license is bound to another machine. */
function boundElsewhere(record: CacheRecord, fingerprint: string, legacyFingerprint?: string): LicenseCheckResult | null {
  if (record.machineFingerprint === null || record.machineFingerprint === fingerprint || record.machineFingerprint === legacyFingerprint) return null;
  return { ...invalid('machine_mismatch', false), machineBound: true, machineFingerprint: record.machineFingerprint };
}

function fromCache(record: CacheRecord, license: LicenseDetails): LicenseCheckResult {
  if (record.verdict && !record.verdict.valid) {
    const bound = record.verdict.reason === 'machine_mismatch' ? { machineBound: true } : {};
    return { ...invalid(record.verdict.reason, true), ...bound };
  }
  return { valid: true, license, offlineVerified: true, ...binding(record) };
}

function offlineFallback(ctx: CheckContext, record: CacheRecord, license: LicenseDetails): LicenseCheckResult {
  // The last thing the server said still stands: a revoked key does not come back to life offline.
  if (record.verdict && !record.verdict.valid) return fromCache(record, license);
  if (ctx.maxOfflineDays !== undefined) {
    const since = record.lastValidAt ?? record.storedAt;
    if (ctx.now - since > ctx.maxOfflineDays * DAY_MS) return invalid('network_error', false);
  }
  return { valid: true, license, offlineVerified: true, ...binding(record) };
}

function binding(record: CacheRecord): Pick<LicenseCheckResult, 'machineBound' | 'machineFingerprint'> {
  if (!record.machineBound) return { machineBound: false };
  return record.machineFingerprint ? { machineBound: true, machineFingerprint: record.machineFingerprint } : { machineBound: true };
}

function invalid(reason: InvalidReason, offlineVerified: boolean): InvalidCheckResult {
  return { valid: false, reason, offlineVerified };
}
