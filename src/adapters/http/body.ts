import { DomainError, InvalidRequestError } from '../../domain/errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;
/** Deeper JSON is refused before parsing: validation reports of deep values cost time and stack. */
export const MAX_JSON_DEPTH = 64;

const tooLarge = () => new DomainError('payload_too_large', 'The body is larger than 64 KiB.');
export const NUL_MESSAGE = 'The request holds a NUL character (U+0000), which no field accepts.';
const hasNul = () => new InvalidRequestError(NUL_MESSAGE);

export const NOT_JSON_MESSAGE = 'Send the body as JSON with content-type: application/json.';

/**
 * How a route takes its body: JSON (every API route), a browser's form post (the sandbox pages), or
 * the raw text (routes that verify a signature over it).
 */
export type BodyKind = 'json' | 'form' | 'raw';

/**
 * Every request body is read here, once: at most 64 KiB whether declared or streamed (chunked),
 * then parsed: JSON no deeper than 64 levels (also when no content type is given). A JSON route
 * refuses any other declared type with one clear message: `curl -d` sends a form type, and parsing
 * the JSON as a form would report every field as missing. Form routes also read form fields and
 * text; raw routes get the text itself, whatever it holds.
 */
export async function readBody(request: Request, kind: BodyKind = 'json'): Promise<unknown> {
  // Nothing to read: left to Elysia, which knows an empty body per route (the stream stays unread).
  if (!request.body || request.headers.get('content-length') === '0') return undefined;
  const type = request.headers.get('content-type');
  if (kind === 'json' && !isJsonType(type)) throw new InvalidRequestError(NOT_JSON_MESSAGE);
  if (kind !== 'raw' && request.headers.has('content-length') && isJsonType(type)) return declaredJson(request);
  const text = await boundedText(request);
  if (kind === 'raw') return text;
  if (text.length === 0) return undefined;
  // A form's NUL arrives as %00 (or as itself).
  if (type?.startsWith('application/x-www-form-urlencoded')) {
    if (text.includes('%00') || text.includes('\0')) throw hasNul();
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (type?.startsWith('text/')) {
    if (text.includes('\0')) throw hasNul();
    return text;
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
  if (inspectJson(value, MAX_JSON_DEPTH) === 'nul') throw hasNul();
  return value;
}

/** No type at all is read as JSON; so are application/json and the `+json` types (e.g. merge-patch). */
function isJsonType(type: string | null): boolean {
  if (type === null) return true;
  const essence = type.split(';', 1)[0]!.trim().toLowerCase();
  return essence === '' || essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence);
}

/**
 * The hot path (every validation): a declared length already checked against 64 KiB, parsed by the
 * runtime's own JSON reader, then one walk over the value for its depth (stopping at the first
 * level past the limit) and for NUL characters in keys and strings.
 */
async function declaredJson(request: Request): Promise<unknown> {
  let value: unknown;
  try {
    value = await request.json();
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
  const problem = inspectJson(value, MAX_JSON_DEPTH);
  if (problem === 'deep') throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  if (problem === 'nul') throw hasNul();
  return value;
}

/**
 * One walk over a parsed JSON value, without recursion: `deep` when it nests deeper than `limit`,
 * `nul` when a key or a string anywhere holds U+0000 (PostgreSQL text cannot store it).
 */
export function inspectJson(value: unknown, limit: number): 'deep' | 'nul' | null {
  if (typeof value === 'string') return value.includes('\0') ? 'nul' : null;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > limit) return 'deep';
    if (Array.isArray(node)) {
      for (const child of node) {
        if (typeof child === 'string') {
          if (child.includes('\0')) return 'nul';
        } else if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
      }
      continue;
    }
    for (const key in node) {
      if (key.includes('\0')) return 'nul';
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (child.includes('\0')) return 'nul';
      } else if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return null;
}

async function boundedText(request: Request): Promise<string> {
  if (request.headers.has('content-length')) {
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
    return text;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body!) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The deepest nesting of brackets outside strings: one pass, no parsing. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123 /* [ { */) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125 /* ] } */) depth--;
  }
  return deepest;
}
