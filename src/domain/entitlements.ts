/**
 * Entitlements (docs/entitlements.md): the codes a license holds, its product's set plus its own.
 * A code is compared case-insensitively ("Pro" and "pro" are one entitlement) and kept in the
 * spelling first given. Licenses carry them as `features` (SPEC.md's LicenseDetails).
 */

export const ENTITLEMENT_LIMITS = { max: 100, codeMax: 100 } as const;

/** C0 and C1 control characters, NUL included: a code is shown to sellers and buyers, never one of these. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export const ENTITLEMENT_CODE_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]+$';

export function entitlementsMessage(field: string): string {
  return `${field} must be at most ${ENTITLEMENT_LIMITS.max} codes, each 1 to ${ENTITLEMENT_LIMITS.codeMax} characters without control characters.`;
}

/** What two spellings of one code share. */
function keyOf(code: string): string {
  return code.toLowerCase();
}

export function isEntitlementCode(code: unknown): code is string {
  return typeof code === 'string' && code.length > 0 && code.length <= ENTITLEMENT_LIMITS.codeMax && !CONTROL.test(code);
}

/** The first broken rule of a list of codes, named after `field`; null when it is a valid set. */
export function entitlementsProblem(field: string, codes: readonly unknown[]): { field: string; message: string } | null {
  if (codes.length > ENTITLEMENT_LIMITS.max || !codes.every(isEntitlementCode)) return { field, message: entitlementsMessage(field) };
  return null;
}

/** Distinct codes, case-insensitively, each in the spelling first given, order kept. */
export function normalizeEntitlements(codes: readonly string[] | undefined): string[] {
  return unionEntitlements([], codes ?? []);
}

/** `a`, then the codes of `b` that `a` lacks (case-insensitively); spellings and order kept. */
export function unionEntitlements(a: readonly string[], b: readonly string[]): string[] {
  const seen = new Set<string>();
  const union: string[] = [];
  for (const code of [...a, ...b]) {
    const key = keyOf(code);
    if (seen.has(key)) continue;
    seen.add(key);
    union.push(code);
  }
  return union;
}

/** The asked codes `held` lacks, as they were asked (once each). */
export function missingEntitlements(held: readonly string[], asked: readonly string[]): string[] {
  const have = new Set(held.map(keyOf));
  return normalizeEntitlements(asked).filter((code) => !have.has(keyOf(code)));
}

export function hasEntitlement(held: readonly string[], code: string): boolean {
  const key = keyOf(code);
  return held.some((c) => keyOf(c) === key);
}

/** The same set, case-insensitively, whatever the order and spelling. */
export function sameEntitlements(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a.map(keyOf));
  const right = new Set(b.map(keyOf));
  return left.size === right.size && [...left].every((key) => right.has(key));
}
