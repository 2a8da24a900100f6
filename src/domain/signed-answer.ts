/**
 * Signed answers (docs/signed-answers.md): a JWS (RFC 7515, alg EdDSA, the seller's `kid`) whose
 * payload is the response body byte for byte, and whose protected header carries the operation, the
 * server's time and the client's nonce. Sent detached (appendix F: `header..signature`) in
 * Licensing-Signature, or whole as the body when the client asks for application/jose. Pure, so the client library reuses it.
 */
import { decodeBase64url, encodeBase64url, utf8 } from './base64url.ts';
import { LICENSE_KEY_ALG } from './license-key.ts';

/** Tells an answer from a license key signed by the same key: neither can stand in for the other. */
export const ANSWER_TYP = 'licensing-answer+jws';
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The operation an answer is for. Activate and deactivate answers have the same body, so without it
 * a signed answer to one request (same nonce, same machine) could be passed off as the other's.
 */
export const ANSWER_OPS = ['validate', 'activate', 'deactivate', 'activations', 'lease', 'lease_heartbeat', 'lease_release'] as const;
export type AnswerOp = (typeof ANSWER_OPS)[number];

export interface AnswerHeader {
  alg: string;
  kid: string;
  typ: string;
  /** Which request this answers: the route that signed it. */
  op: AnswerOp;
  /** Milliseconds since the epoch, read once when the answer was signed. */
  serverTime: number;
  /** The request's Licensing-Nonce; absent when the request sent none. */
  nonce?: string;
  /** The machine fingerprint the request named, so an answer about one machine cannot pass for another's. */
  machineFingerprint?: string;
}

export interface AnswerContext {
  op: AnswerOp;
  serverTime: number;
  nonce?: string;
  machineFingerprint?: string;
}

/** The text to sign: base64url(header) "." base64url(body). */
export function answerSigningInput(kid: string, context: AnswerContext, body: string): { header: string; payload: string; input: string } {
  const header = answerHeaderEncoder(kid, context.op)(context);
  const payload = encodeBase64url(utf8.encode(body));
  return { header, payload, input: `${header}.${payload}` };
}

/** The protected header as JSON, fields in this order: what every encoder must produce byte for byte. */
export function answerHeaderJson(kid: string, context: AnswerContext): string {
  const fields: AnswerHeader = { alg: LICENSE_KEY_ALG, kid, typ: ANSWER_TYP, op: context.op, serverTime: context.serverTime };
  if (context.nonce !== undefined) fields.nonce = context.nonce;
  if (context.machineFingerprint !== undefined) fields.machineFingerprint = context.machineFingerprint;
  return JSON.stringify(fields);
}

/**
 * base64url(answerHeaderJson) for one key and operation, with the constant part encoded once:
 * `{"alg":…,"kid":…,"typ":…,"op":…,"serverTime":` is cut at a multiple of 3 bytes, whose base64url
 * is kept, and each answer encodes only the rest (the cut's 0 to 2 leftover characters, the time,
 * the nonce and the fingerprint). Base64 of a concatenation cut at 3 bytes is the concatenation of
 * the two encodings, so the result is exactly the encoding of the whole JSON.
 */
export function answerHeaderEncoder(kid: string, op: AnswerOp): (context: AnswerContext) => string {
  const constant = answerHeaderJson(kid, { op, serverTime: 0 }).slice(0, -2); // without `0}`
  // Non-ASCII (never a kid this service makes) would not cut at a character: encoded whole.
  if (!/^[\x20-\x7e]*$/.test(constant)) return (context) => encodeBase64url(utf8.encode(answerHeaderJson(kid, context)));
  const cut = constant.length - (constant.length % 3);
  const head = encodeBase64url(utf8.encode(constant.slice(0, cut)));
  const rest = constant.slice(cut);
  return (context) => {
    let tail = `${rest}${context.serverTime}`;
    // A nonce is NONCE_PATTERN's characters (no escaping); a fingerprint is any string the request sent.
    if (context.nonce !== undefined) tail += `,"nonce":${JSON.stringify(context.nonce)}`;
    if (context.machineFingerprint !== undefined) tail += `,"machineFingerprint":${JSON.stringify(context.machineFingerprint)}`;
    return head + encodeBase64url(utf8.encode(`${tail}}`));
  };
}

export interface ParsedAnswer {
  header: AnswerHeader;
  /** The body the signature covers, as text. */
  body: string;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

/**
 * Reads a detached JWS (`header..signature`) together with the body it came with, or a compact JWS
 * (`header.payload.signature`) that is the body. Structure only: the caller verifies the signature.
 */
export function parseAnswer(jws: string, detachedBody?: string): ParsedAnswer | null {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || jws.length > 65_536) return null;
  const [h, p, s] = parts as [string, string, string];
  const detached = p === '';
  if (detached === (detachedBody === undefined)) return null;
  const payload = detached ? encodeBase64url(utf8.encode(detachedBody!)) : p;
  const header = decodeJson(h);
  const body = detached ? detachedBody! : decodeText(p);
  const signature = decodeBase64url(s);
  if (!isAnswerHeader(header) || body === null || signature === null || signature.length !== 64) return null;
  return { header, body, signingInput: utf8.encode(`${h}.${payload}`), signature };
}

function decodeText(segment: string): string | null {
  const bytes = decodeBase64url(segment);
  return bytes && utf8.decode(bytes);
}

function decodeJson(segment: string): unknown {
  const text = decodeText(segment);
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAnswerHeader(value: unknown): value is AnswerHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return (
    h.alg === LICENSE_KEY_ALG &&
    h.typ === ANSWER_TYP &&
    typeof h.kid === 'string' &&
    (ANSWER_OPS as readonly unknown[]).includes(h.op) &&
    Number.isSafeInteger(h.serverTime) &&
    (h.nonce === undefined || typeof h.nonce === 'string') &&
    (h.machineFingerprint === undefined || typeof h.machineFingerprint === 'string')
  );
}
