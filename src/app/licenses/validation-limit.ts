import type { Deps } from '../../ports/deps.ts';
import { hitOrRefuse } from '../limits/address-limits.ts';

const MINUTE_MS = 60_000;

/**
 * What a validation counts against. A key that names one of the caller's licenses counts against
 * that license, so only its holder can use its allowance up; any other key (malformed, forged, or
 * another seller's) counts against the client address that sent it. A flood of junk therefore
 * denies nothing but more junk from the same address, and never a valid license.
 */
export type ValidationSubject = { licenseId: string } | { address: string };

type LimitDeps = Pick<Deps, 'rateLimiter' | 'settings'>;

/** One rate-limit hit per validation; past the subject's limit, 429 rate_limited with Retry-After. */
export function countValidation(deps: LimitDeps, subject: ValidationSubject): Promise<void> | undefined {
  if ('licenseId' in subject) {
    return hitOrRefuse(deps, `validate:license:${subject.licenseId}`, deps.settings.validateRateLimitPerMinute, MINUTE_MS, (limit, seconds) =>
      `Too many validations of this license (at most ${limit} a minute). Try again in ${seconds} seconds.`,
    );
  }
  return hitOrRefuse(deps, `validate:address:${subject.address}`, deps.settings.addressLimits.invalidValidationsPerMinute, MINUTE_MS, (limit, seconds) =>
    `Too many validations of unknown or invalid license keys from this address (at most ${limit} a minute). Try again in ${seconds} seconds.`,
  );
}
