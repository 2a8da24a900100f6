/**
 * Key rotation that strands no application (docs/key-rotation.md): each new signing key is endorsed
 * by the key before it, and a key retired as compromised is named so by its successor. Both are
 * compact JWS (alg EdDSA) told apart by `typ`, so neither can pass for a license key or an answer.
 * Pure, so the client library reuses it; the Ed25519 primitive is the caller's.
 */
import { decodeBase64url, encodeBase64url, utf8 } from './base64url.ts';
import { decodeJson, encodeJson, LICENSE_KEY_ALG } from './license-key.ts';

export const ENDORSEMENT_TYP = 'licensing-key-endorsement+jws';
export const RETIREMENT_TYP = 'licensing-key-retirement+jws';

/** How long before it signs a new key is published by default: apps online in that week learn it early. */
export const ROTATION_LEAD_MS = 7 * 86_400_000;
/** The furthest ahead a rotation may be scheduled. */
export const MAX_ROTATION_LEAD_MS = 365 * 86_400_000;
/** A seller's statements travel with every answer; past this many, the oldest are left out. */
export const MAX_CHAIN_STATEMENTS = 64;
const MAX_STATEMENT_LENGTH = 2048;

/** "Key `kid` (public key `x`) is the seller's next key from `notBefore`", signed by the key before it. */
export interface Endorsement {
  sub: string;
  kid: string;
  x: string;
  notBefore: number;
  iat: number;
}

/** "Key `kid` is compromised from `compromisedAt`; `successor` replaces it", signed by `successor`. */
export interface Retirement {
  sub: string;
  kid: string;
  compromisedAt: number;
  successor: string;
}

export type Statement =
  | { type: 'endorsement'; signer: string; claims: Endorsement; signingInput: Uint8Array; signature: Uint8Array }
  | { type: 'retirement'; signer: string; claims: Retirement; signingInput: Uint8Array; signature: Uint8Array };

/** What a key is to the seller at one moment: the JWKS's `status`. */
export const KEY_STATUSES = ['current', 'next', 'retired', 'compromised'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export function endorsementSigningInput(signerKid: string, claims: Endorsement): string {
  const { sub, kid, x, notBefore, iat } = claims;
  return `${encodeJson({ alg: LICENSE_KEY_ALG, kid: signerKid, typ: ENDORSEMENT_TYP })}.${encodeJson({ sub, kid, x, notBefore, iat })}`;
}

export function retirementSigningInput(signerKid: string, claims: Retirement): string {
  const { sub, kid, compromisedAt, successor } = claims;
  return `${encodeJson({ alg: LICENSE_KEY_ALG, kid: signerKid, typ: RETIREMENT_TYP })}.${encodeJson({ sub, kid, compromisedAt, successor })}`;
}

export function assembleStatement(signingInput: string, signature: Uint8Array): string {
  return `${signingInput}.${encodeBase64url(signature)}`;
}

/** Structure only: the caller checks the signature with the signer's key, if it trusts that key. */
export function parseStatement(jws: unknown): Statement | null {
  if (typeof jws !== 'string' || jws.length > MAX_STATEMENT_LENGTH) return null;
  const parts = jws.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJson(h);
  const claims = decodeJson(p);
  const signature = decodeBase64url(s);
  if (!isRecord(header) || header.alg !== LICENSE_KEY_ALG || !isId(header.kid) || !signature || signature.length !== 64) return null;
  const signingInput = utf8.encode(`${h}.${p}`);
  if (header.typ === ENDORSEMENT_TYP && isEndorsement(claims)) return { type: 'endorsement', signer: header.kid, claims, signingInput, signature };
  if (header.typ === RETIREMENT_TYP && isRetirement(claims)) return { type: 'retirement', signer: header.kid, claims, signingInput, signature };
  return null;
}

function isEndorsement(value: unknown): value is Endorsement {
  return (
    isRecord(value) && isId(value.sub) && isId(value.kid) && typeof value.x === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value.x) &&
    Number.isSafeInteger(value.notBefore) && Number.isSafeInteger(value.iat)
  );
}

function isRetirement(value: unknown): value is Retirement {
  return isRecord(value) && isId(value.sub) && isId(value.kid) && isId(value.successor) && Number.isSafeInteger(value.compromisedAt);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 200;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JWKS's `status` of a key, given the kid that signs at `now`. */
export function keyStatus(key: { kid: string; notBefore: number; compromisedAt: number | null }, signingKid: string | null, now: number): KeyStatus {
  if (key.compromisedAt !== null) return 'compromised';
  if (key.kid === signingKid) return 'current';
  return key.notBefore > now ? 'next' : 'retired';
}
