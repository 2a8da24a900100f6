import fc from 'fast-check';

/**
 * Hostile inputs, generated as text where JSON allows more than JavaScript values do: duplicate
 * keys, -0, 1e400, integers past 2^53, nesting thousands deep, lone surrogates.
 */

const json = (value: unknown) => JSON.stringify(value) ?? 'null';

const EDGE_NUMBERS = ['0', '-0', '1', '-1', '0.5', '1e400', '-1e400', '1e-400', '2147483648', '-2147483649', '4294967296', '9007199254740993', '123456789012345678901234567890', '1E3', '1e21', '5e-324'];
const NASTY_STRINGS = ['', ' ', '\u0000', 'a\u0000b', '\u0000'.repeat(3), '\t\r\n', '\u0001\u001f\u007f', 'ada@example.com\u0000', 'null', 'undefined', 'true', '__proto__', 'constructor', '<script>alert(1)</script>', "'; DROP TABLE licenses; --", '../../etc/passwd', '%00', '\u202e', '\ud800', '\udfff', 'é'.repeat(50), '🧨'.repeat(50)];

/** C0 controls and DEL (NUL most of all: PostgreSQL text cannot hold it), alone or inside text. */
const CONTROL = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const controlString = fc
  .array(fc.oneof({ weight: 2, arbitrary: CONTROL }, { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u007f', 'a', '@', '_') }), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

/** Strings of every kind: ASCII, any code point, invalid UTF-16, control characters, and a few known troublemakers. */
export const anyString = fc.oneof(
  fc.string(),
  controlString,
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...NASTY_STRINGS),
);

/** Big enough to cross the 64 KiB body limit sometimes, but not every time. */
const hugeString = fc.integer({ min: 1_000, max: 80_000 }).map((n) => 'x'.repeat(n));

/**
 * Nesting up to 1,000 deep. Deeper arrays in a string field crash the validation error report
 * (see regressions.test.ts); kept below that here so the fuzz finds other things.
 */
const deep = fc
  .tuple(fc.integer({ min: 64, max: 1_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth)));

/** One JSON value, as text. */
export const jsonFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
  { weight: 3, arbitrary: anyString.map(json) },
  { weight: 2, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'false', '[]', '{}', '[null]', '{"":""}') },
  { weight: 1, arbitrary: fc.array(anyString.map(json), { maxLength: 5 }).map((items) => `[${items.join(',')}]`) },
  { weight: 1, arbitrary: hugeString.map(json) },
  { weight: 1, arbitrary: deep },
);

/** An object's members as text: the route's known fields, strangers, and the prototype's names. */
const memberName = (known: string[]) =>
  known.length > 0 ? fc.oneof(fc.constantFrom(...known), anyString, fc.constantFrom('__proto__', 'constructor', 'prototype')) : fc.oneof(anyString, fc.constant('__proto__'));

export type BodyPlan =
  | { kind: 'none' }
  /** Any JSON value at all. */
  | { kind: 'json'; text: string }
  /** The route's valid body with members replaced, added (`set`) and removed (`drop`). */
  | { kind: 'mutated'; set: [string, string][]; drop: string[] }
  /** Not JSON, or barely. */
  | { kind: 'raw'; text: string }
  /** Name=value pairs, form-urlencoded, as a browser's form posts them. */
  | { kind: 'form'; pairs: [string, string][] };

const MALFORMED = ['{', '}', '{"a":', '{"a" 1}', "{'a': 1}", '{"a": 1,}', '[1,]', 'nope', 'NaN', 'Infinity', '{"a": undefined}', '\u0000', '\ufeff{}', '{"a":"\\x"}', '{"a":"\\ud800"}', ' '];

export function bodyPlan(known: string[]): fc.Arbitrary<BodyPlan> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 2, arbitrary: jsonFragment.map((text) => ({ kind: 'json' as const, text })) },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('mutated' as const),
        set: fc.array(fc.tuple(memberName(known), jsonFragment), { minLength: 1, maxLength: 4 }),
        drop: known.length > 0 ? fc.subarray(known, { maxLength: Math.min(2, known.length) }) : fc.constant<string[]>([]),
      }),
    },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...MALFORMED), fc.string({ unit: 'binary' })).map((text) => ({ kind: 'raw' as const, text })) },
    { weight: 1, arbitrary: fc.array(fc.tuple(memberName(known), fc.oneof(anyString, hugeString)), { maxLength: 4 }).map((pairs) => ({ kind: 'form' as const, pairs })) },
  );
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The body a plan stands for, given the route's valid body (made fresh for each call), and the
 * content type it would naturally travel with. A route that takes a form gets its valid fields as one.
 */
export function bodyOf(plan: BodyPlan, valid: Record<string, unknown> | undefined, takesForm = false): { text?: string; type?: string } {
  if (plan.kind === 'none') return {};
  if (plan.kind === 'form') return { text: new URLSearchParams(plan.pairs).toString(), type: FORM };
  if (plan.kind !== 'mutated') return { text: plan.text };
  const kept = Object.entries(valid ?? {}).filter(([name]) => !plan.drop.includes(name) && !plan.set.some(([n]) => n === name));
  if (takesForm) return { text: new URLSearchParams([...kept.map(([name, value]) => [name, String(value)]), ...plan.set]).toString(), type: FORM };
  const members = [...kept.map(([name, value]) => [name, json(value)] as const), ...plan.set];
  return { text: `{${members.map(([name, text]) => `${json(name)}:${text}`).join(',')}}` };
}

/** Printable header values (any Latin-1, as HTTP allows), long ones too. */
export const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});

export type AuthPlan =
  | { kind: 'owner' | 'none' | 'publishable' | 'other-secret' | 'secret-as-bearer' }
  | { kind: 'junk-key' | 'junk-bearer' | 'junk-authorization' | 'owner-and-junk-bearer'; junk: string };

export const authPlan: fc.Arbitrary<AuthPlan> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'owner' as const }) },
  { weight: 3, arbitrary: fc.constantFrom(...(['none', 'publishable', 'other-secret', 'secret-as-bearer'] as const)).map((kind) => ({ kind })) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom(...(['junk-key', 'junk-bearer', 'junk-authorization', 'owner-and-junk-bearer'] as const)),
      junk: fc.oneof(headerValue, fc.constantFrom('sk_', 'pk_', 'idt_').chain((prefix) => headerValue.map((v) => prefix + v))),
    }),
  },
);

export const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    'application/xml',
    'application/vnd.api+json',
    '',
    '*/*',
    'junk/%%%; =;',
  ),
  { nil: undefined },
);

/** Headers a client might add: some harmless, some lying about the body. */
export const extraHeaders = fc.dictionary(
  fc.constantFrom('accept', 'x-device-fingerprint', 'x-forwarded-for', 'origin', 'content-length', 'stripe-signature', 'x-request-id'),
  fc.oneof(headerValue, fc.constantFrom('0', '100000', '-1', 'abc', '99999999999999999999')),
  { maxKeys: 2 },
);

const QUERY_NAMES = ['limit', 'startingAfter', 'to', 'code', 'state', 'error', 'error_description', 'redirect_uri', 'scope'];
const RAW_QUERIES = ['%', '%zz', 'a=%E0%A4%A', '&&&', '=', '==', 'limit=1&limit=2', 'limit[]=1', 'limit=-1', 'limit=0', 'limit=1e3', 'limit=99999999999999999999', 'limit=1.5', 'to=%00', 'state=&code='];

/** A query string (without its `?`), or none. */
export const queryString = fc.oneof(
  fc.constant(''),
  fc.constantFrom(...RAW_QUERIES),
  fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), anyString), fc.oneof(anyString, fc.constantFrom(...EDGE_NUMBERS))), { minLength: 1, maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()),
);

/** Lone surrogates replaced, as encodeURIComponent requires (String.prototype.toWellFormed, typed before ES2024). */
const wellFormed = (s: string): string => (s as unknown as { toWellFormed(): string }).toWellFormed();

const RAW_IDS = ['..', '.', '%', '%zz', '%00', '%2F', 'a%2Fb', '%E0%A4%A', '%20', 'null', 'undefined', '0', '-1', '1e3', '__proto__', 'constructor', 'lic_', 'prod_', 'cs_', 'x'.repeat(5_000)];

/** A path segment in place of `:id`: none (the owner's own resource), world ids, prefixed junk, raw escapes. */
export type IdPlan = { kind: 'own' } | { kind: 'world'; pick: number } | { kind: 'segment'; segment: string };

export const idPlan: fc.Arbitrary<IdPlan> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'own' as const }) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'world' as const, pick })) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_IDS).map((segment) => ({ kind: 'segment' as const, segment })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom('', 'lic_', 'prod_', 'cs_', 'dev_', 'pur_'), anyString)
      .map(([prefix, rest]) => ({ kind: 'segment' as const, segment: encodeURIComponent(wellFormed(prefix + rest)) })),
  },
);
