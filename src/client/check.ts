import type { CacheRecord } from './cache.ts';
import type { Http } from './http.ts';
import { detailsFromClaims, statusOf } from './license-details.ts';
import type { OfflineVerifier } from './offline.ts';
import { CACHE_REFRESH_MS, type InvalidReason, type LicenseCheckResult, type LicenseDetails } from './types.ts';

export interface CheckContext {
  http: Http;
  apiKey: string;
  verifier: OfflineVerifier;
  now: number;
  fingerprint: string;
  maxOfflineDays?: number;
  load(): Promise<CacheRecord | null>;
  save(record: CacheRecord): Promise<void>;
}

const DAY_MS = 86_400_000;
const ONLINE_REASONS = new Set<InvalidReason>(['not_found', 'expired', 'revoked', 'invalid_format', 'invalid_signature', 'machine_mismatch']);

/** SPEC.md section 1, "Client-side verification flow", steps 1 to 5. */
export async function checkLicense(ctx: CheckContext): Promise<LicenseCheckResult> {
  // 1. The stored key.
  const record = await ctx.load();
  if (!record) return invalid('not_found', false);

  // 2. Offline: structure, kid, signature, expiry, and the binding this cache last heard of.
  const offline = await ctx.verifier.verify(record.licenseKey, ctx.now);
  if (!offline.ok) return invalid(offline.reason, false);
  if (record.machineFingerprint !== null && record.machineFingerprint !== ctx.fingerprint) {
    return { ...invalid('machine_mismatch', false), machineBound: true, machineFingerprint: record.machineFingerprint };
  }
  const license = detailsFromClaims(offline.claims, { status: record.license?.status, productName: record.license?.productName });

  // 3. Refreshed less than 24 hours ago: the cached verdict, no network.
  if (record.refreshedAt !== null && ctx.now - record.refreshedAt < CACHE_REFRESH_MS && record.verdict) {
    return fromCache(record, license);
  }

  // 4. Online; null when the server gave no verdict.
  const online = await validateOnline(ctx, record, license);
  if (online) return online;

  // 5. Unreachable, timed out, 5xx, 4xx (a wrong API key is not the buyer's fault) or nonsense:
  //    the offline result, left uncached so the next check asks again.
  return offlineFallback(ctx, record, license);
}

/** Step 4: POST /licenses/validate; any verdict (valid or not) is believed and cached. */
async function validateOnline(ctx: CheckContext, record: CacheRecord, license: LicenseDetails): Promise<LicenseCheckResult | null> {
  const answer = await ctx.http.send('POST', '/licenses/validate', {
    apiKey: ctx.apiKey,
    body: { licenseKey: record.licenseKey, machineFingerprint: ctx.fingerprint },
  });
  const verdict = answer.kind === 'ok' ? onlineVerdict(answer.body) : null;
  if (!verdict) return null;
  if (verdict.valid) {
    const fresh = { ...license, status: verdict.status };
    await ctx.save({ ...record, refreshedAt: ctx.now, lastValidAt: ctx.now, license: fresh, machineBound: true, machineFingerprint: ctx.fingerprint, verdict: { valid: true } });
    return { valid: true, license: fresh, offlineVerified: false, machineBound: true, machineFingerprint: ctx.fingerprint };
  }
  // The server is believed: revoked, expired or bound elsewhere stays so for the next 24 hours.
  const status = verdict.reason === 'revoked' || verdict.reason === 'expired' ? verdict.reason : (record.license?.status ?? 'active');
  // A mismatch means bound, but to a machine this client cannot name.
  const mismatch = verdict.reason === 'machine_mismatch';
  const binding = mismatch ? { machineBound: true, machineFingerprint: null } : {};
  await ctx.save({ ...record, ...binding, refreshedAt: ctx.now, license: { ...license, status }, verdict: { valid: false, reason: verdict.reason } });
  return mismatch ? { ...invalid(verdict.reason, false), machineBound: true } : invalid(verdict.reason, false);
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

function invalid(reason: InvalidReason, offlineVerified: boolean): LicenseCheckResult {
  return { valid: false, reason, offlineVerified };
}

type OnlineVerdict = { valid: true; status: LicenseDetails['status'] } | { valid: false; reason: InvalidReason };

/** A 2xx that is not one of the spec's two answers counts as a failing server (step 5). */
function onlineVerdict(body: unknown): OnlineVerdict | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { valid?: unknown; reason?: unknown; license?: { status?: unknown } };
  if (b.valid === true) {
    return { valid: true, status: statusOf(b.license?.status) };
  }
  if (b.valid === false && typeof b.reason === 'string' && ONLINE_REASONS.has(b.reason as InvalidReason)) {
    return { valid: false, reason: b.reason as InvalidReason };
  }
  return null;
}
