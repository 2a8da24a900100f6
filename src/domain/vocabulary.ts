/**
 * Vocabularies (statuses, reasons, kinds) are `as const` arrays in the domain; this narrows an
 * untrusted value (a flag, a cached file, a server's answer) to one of them.
 */
export function isOneOf<const T extends readonly string[]>(values: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
