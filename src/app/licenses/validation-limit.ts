import { RateLimitedError } from '../../domain/errors.ts';
import type { ApiKeyScope } from '../../domain/developer.ts';
import type { Deps } from '../../ports/deps.ts';

export const DEFAULT_VALIDATE_RATE_LIMIT_PER_MINUTE = 6_000;
const MINUTE_MS = 60_000;

type LimitDeps = Pick<Deps, 'rateLimiter' | 'validateRateLimitPerMinute'>;

/**
 * Counts one validation against the caller's API key (a developer's secret and publishable keys
 * are counted apart) and refuses it past the per-minute limit. A limit of 0 counts nothing.
 */
export async function countValidation(deps: LimitDeps, caller: { developerId: string; scope: ApiKeyScope }): Promise<void> {
  const limit = deps.validateRateLimitPerMinute;
  if (limit <= 0) return;
  const verdict = await deps.rateLimiter.hit(`validate:${caller.developerId}:${caller.scope}`, limit, MINUTE_MS);
  if (!verdict.allowed) {
    throw new RateLimitedError(
      'rate_limited',
      `Too many validations with this API key (at most ${limit} a minute). Try again in ${verdict.retryAfterSeconds} seconds.`,
      verdict.retryAfterSeconds,
    );
  }
}
