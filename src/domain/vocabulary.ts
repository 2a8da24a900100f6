/**
 * Vocabularies (statuses, reasons, kinds) are `as const` arrays in the domain; this narrows an
 * untrusted value (a flag, a cached file, a server's answer) to one of them.
 */
/** "a, b or c": a vocabulary as a sentence names it (usage errors, refusals, descriptions). */
export const orList = (values: readonly string[]): string => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

export function isOneOf<const T extends readonly string[]>(values: T, value: unknown): value is T[number] {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
