import { RateLimitedError } from '../../domain/errors.ts';
import type { AddressLimits } from '../../domain/settings.ts';
import type { Deps } from '../../ports/deps.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The requests that need no credential (or only the public pk_) and leave a row or a paid API call behind. */
export type AddressLimited = 'signup' | 'login' | 'checkout' | 'trial';

const RULES: Record<AddressLimited, { limit: (l: AddressLimits) => number; windowMs: number; per: string; what: string }> = {
  signup: { limit: (l) => l.signupsPerHour, windowMs: HOUR_MS, per: 'an hour', what: 'sign-ups' },
  login: { limit: (l) => l.loginInitsPerHour, windowMs: HOUR_MS, per: 'an hour', what: 'sign-in codes requested' },
  checkout: { limit: (l) => l.checkoutInitsPerMinute, windowMs: MINUTE_MS, per: 'a minute', what: 'checkouts started' },
  trial: { limit: (l) => l.trialsPerHour, windowMs: HOUR_MS, per: 'an hour', what: 'trials started' },
};

type LimitDeps = Pick<Deps, 'rateLimiter' | 'settings'>;

/** Counts one `action` from `address` (a key from the HTTP adapter's client address) and refuses it past its limit. */
export async function countFromAddress(deps: LimitDeps, action: AddressLimited, address: string): Promise<void> {
  const rule = RULES[action];
  await hitOrRefuse(deps, `${action}:address:${address}`, rule.limit(deps.settings.addressLimits), rule.windowMs, (limit, seconds) =>
    `Too many ${rule.what} from this address (at most ${limit} ${rule.per}). Try again in ${seconds} seconds.`,
  );
}

/**
 * One hit on `key`; past `limit` in its window, 429 rate_limited with Retry-After. A limit of 0
 * counts nothing and returns at once, with no promise: the validation hot path counts every request,
 * and two async frames for a limit that is off were a named cost of its profile (issue 31).
 */
export function hitOrRefuse(
  deps: Pick<Deps, 'rateLimiter'>,
  key: string,
  limit: number,
  windowMs: number,
  message: (limit: number, retryAfterSeconds: number) => string,
): Promise<void> | undefined {
  return limit <= 0 ? undefined : refuseOverLimit(deps, key, limit, windowMs, message);
}

async function refuseOverLimit(
  deps: Pick<Deps, 'rateLimiter'>,
  key: string,
  limit: number,
  windowMs: number,
  message: (limit: number, retryAfterSeconds: number) => string,
): Promise<void> {
  const verdict = await deps.rateLimiter.hit(key, limit, windowMs);
  if (!verdict.allowed) throw new RateLimitedError('rate_limited', message(limit, verdict.retryAfterSeconds), verdict.retryAfterSeconds);
}
