import { and, type AnyColumn, eq, isNull, lte, or } from 'drizzle-orm';
import { API_KEY_LAST_USED_RESOLUTION_MS } from '../../../domain/developer.ts';

/**
 * DeveloperRepository.touchApiKey's UPDATE: lastUsedAt becomes `at` only when it is unset or a
 * minute older, so concurrent requests (and other instances) write it once a minute at most.
 */
export function lastUsedStatement(apiKeys: { keyHash: AnyColumn; lastUsedAt: AnyColumn }, keyHash: string, at: number) {
  const stale = or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, at - API_KEY_LAST_USED_RESOLUTION_MS));
  return { set: { lastUsedAt: at }, where: and(eq(apiKeys.keyHash, keyHash), stale) };
}
