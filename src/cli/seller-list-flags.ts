import { isOneOf, orList } from '../domain/vocabulary.ts';
import type { Flags } from './args.ts';
import { UsageError } from './errors.ts';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * A time flag as Unix milliseconds: digits are milliseconds; an ISO date (2026-01-31, midnight UTC) or
 * date-time (2026-01-31T12:00, UTC unless it carries Z or an offset). Anything else is a usage error.
 */
export function timeFlag(flags: Flags, name: string): number | undefined {
  const value = flags.string(name)?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  const zoned = ISO.test(value) && value.includes('T') && !/(Z|[+-]\d{2}:\d{2})$/.test(value) ? `${value}Z` : value;
  const ms = ISO.test(value) ? Date.parse(zoned) : NaN;
  if (!Number.isFinite(ms) || ms < 0) throw new UsageError(`--${name} must be an ISO date such as 2026-01-31 (or 2026-01-31T12:00Z) or Unix milliseconds, not "${value}"`);
  return ms;
}

/** One of `allowed`, or a usage error listing them. */
export function choiceFlag<const T extends readonly string[]>(flags: Flags, name: string, allowed: T): T[number] | undefined {
  const value = flags.string(name)?.trim().toLowerCase();
  if (value === undefined) return undefined;
  if (!isOneOf(allowed, value)) throw new UsageError(`--${name} must be ${orList(allowed)}, not "${value}"`);
  return value;
}

/** The command line for the next page: the cursor, then the same filters as given. */
export function nextPage(command: string, flags: Flags, filters: readonly string[], lastId: string): string {
  const given = filters.flatMap((name) => {
    const value = flags.string(name);
    return value === undefined ? [] : [`--${name} ${/^[\w@.:+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`}`];
  });
  return `\nMore: licensing ${command} ${[`--starting-after ${lastId}`, ...given].join(' ')}`;
}
