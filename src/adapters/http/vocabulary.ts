import { t } from 'elysia';
import { orList } from '../../domain/vocabulary.ts';

/**
 * A domain vocabulary as TypeBox literals, so the request checks and the OpenAPI document list
 * exactly the domain's values. A union of literals, not t.UnionEnum: the document keeps its
 * `anyOf` of `const`s, which generated clients already read.
 */
type Literal<V extends string> = ReturnType<typeof t.Literal<V>>;
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: Literal<T[K]> };
type LiteralUnion<T extends readonly string[]> = ReturnType<typeof t.Union<Literals<T>>>;
type UnionOptions = Parameters<typeof t.Union>[1];

export function literals<const T extends readonly string[]>(values: T): Literals<T> {
  return values.map((value) => t.Literal(value)) as Literals<T>;
}

/** The refusal of a value outside a vocabulary, naming every value: "status must be paid or refunded." */
export const choiceError = (field: string, values: readonly string[]): string => `${field} must be ${orList(values)}.`;

/** Each value and what it means, in the vocabulary's order ("a: …; b: …."): a new value without its meaning fails the type check. */
export function meanings<const T extends readonly string[]>(values: T, meaning: Record<T[number], string>): string {
  return `${values.map((value: T[number]) => `${value}: ${meaning[value]}`).join('; ')}.`;
}

export function literalUnion<const T extends readonly string[]>(values: T, options?: UnionOptions): LiteralUnion<T> {
  // Inside the generic body TypeBox widens the tuple to TLiteral<string>[]; callers get the exact type.
  return t.Union(literals(values), options) as LiteralUnion<T>;
}
