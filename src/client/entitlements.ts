import { hasEntitlement, missingEntitlements } from '../domain/entitlements.ts';
import type { CacheRecord } from './cache.ts';
import type { OfflineVerdict } from './offline.ts';

/**
 * docs/entitlements.md, "has()": what the license holds, read only from evidence this client
 * verified with the seller's keys. Each source says which entitlements the license held as of its
 * signed issue time; the freshest wins. The license key (its claims, as of the license's issue) and
 * the last signed validation answer (as of its server time) and the last verified machine file (as of
 * its issue time, until it expires) are the sources; a lease token would be one more reader.
 */
export interface EntitlementSource {
  from: 'license_key' | 'validation_answer' | (string & {});
  features: readonly string[];
  /** Signed time the source speaks for (ms). */
  issuedAt: number;
}

/** What the readers get: the stored record (its answer verified by recall), the key's offline verdict, this clock. */
export interface SourceContext {
  record: CacheRecord;
  key: OfflineVerdict;
  now: number;
}

export type SourceReader = (ctx: SourceContext) => EntitlementSource | null | Promise<EntitlementSource | null>;

/** The key's claims, while it verifies and has not expired by this clock (a key past its end holds nothing). */
const fromKey: SourceReader = ({ key }) => (key.ok ? { from: 'license_key', features: key.claims.features, issuedAt: key.claims.issuedAt } : null);

/** The last signed validation answer: a valid one's features, a refusal's nothing. */
const fromAnswer: SourceReader = ({ record }) => (record.heard ? { from: 'validation_answer', features: record.heard.features, issuedAt: record.heard.serverTime } : null);

/** The last verified machine file of the license, until its expiry by this clock. */
const fromMachineFile: SourceReader = ({ record, now }) =>
  record.machineFile && now < record.machineFile.expiresAt ? { from: 'machine_file', features: record.machineFile.features, issuedAt: record.machineFile.issuedAt } : null;

export const SOURCE_READERS: SourceReader[] = [fromKey, fromMachineFile, fromAnswer];

/** Every source's evidence, in reader order; none when the key itself does not stand. */
export async function entitlementSources(ctx: SourceContext, readers: readonly SourceReader[] = SOURCE_READERS): Promise<EntitlementSource[]> {
  if (!ctx.key.ok) return [];
  const read = await Promise.all(readers.map((reader) => reader(ctx)));
  return read.filter((source): source is EntitlementSource => source !== null);
}

/** The latest by issue time; on a tie the later reader (an answer is about the license as it is now). */
export function freshestSource(sources: readonly EntitlementSource[]): EntitlementSource | null {
  return sources.reduce<EntitlementSource | null>((best, source) => (best === null || source.issuedAt >= best.issuedAt ? source : best), null);
}

export function holds(sources: readonly EntitlementSource[], code: string): boolean {
  const freshest = freshestSource(sources);
  return freshest !== null && hasEntitlement(freshest.features, code);
}

/** The asked codes the freshest source lacks (all of them when there is none). */
export function lacking(sources: readonly EntitlementSource[], asked: readonly string[]): string[] {
  return missingEntitlements(freshestSource(sources)?.features ?? [], asked);
}
