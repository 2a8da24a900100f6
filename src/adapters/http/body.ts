import { DomainError, InvalidRequestError } from '../../domain/errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;
/** Deeper JSON is refused before parsing: validation reports of deep values cost time and stack. */
export const MAX_JSON_DEPTH = 64;

const tooLarge = () => new DomainError('payload_too_large', 'The body is larger than 64 KiB.');

/**
 * Every request body is read here, once: at most 64 KiB whether declared or streamed (chunked),
 * then parsed by content type: form fields, text, or JSON
 * (the default) no deeper than 64 levels. Routes that verify a signature over the body (`raw`)
 * get the text itself, whatever it holds.
 */
export async function readBody(request: Request, raw = false): Promise<unknown> {
  // Nothing to read: left to Elysia, which knows an empty body per route (the stream stays unread).
  if (!request.body || request.headers.get('content-length') === '0') return undefined;
  if (!raw && request.headers.has('content-length') && isJson(request)) return declaredJson(request);
  const text = await boundedText(request);
  if (raw) return text;
  if (text.length === 0) return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (type.startsWith('text/')) return text;
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
}

const isJson = (request: Request) => {
  const type = request.headers.get('content-type');
  return type === null || type.startsWith('application/json');
};

/**
 * The hot path (every validation): a declared length already checked against 64 KiB, parsed by the
 * runtime's own JSON reader, then the depth measured on the value, which stops at the first level
 * past the limit.
 */
async function declaredJson(request: Request): Promise<unknown> {
  let value: unknown;
  try {
    value = await request.json();
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
  if (deeperThan(value, MAX_JSON_DEPTH)) throw new InvalidRequestError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  return value;
}

/** Whether a parsed JSON value nests deeper than `limit`, walked without recursion. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
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
