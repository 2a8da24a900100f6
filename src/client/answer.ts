import { encodeBase64url } from '../domain/base64url.ts';
import { parseAnswer, type AnswerOp } from '../domain/signed-answer.ts';
import type { OfflineVerifier } from './offline.ts';

/** docs/signed-answers.md: the request header that carries the nonce, the response header with the JWS. */
export const NONCE_HEADER = 'licensing-nonce';
export const SIGNATURE_HEADER = 'licensing-signature';

/** 18 random bytes: 24 base64url characters, inside the server's 16 to 128. */
export function newNonce(): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(18)));
}

export type VerifiedAnswer = { ok: true; body: unknown; serverTime: number } | { ok: false; message: string };

/**
 * Believes an answer only when the seller's key signed this very body, for this operation, this
 * request's nonce and this machine: an answer without a signature, signed by anyone else, replayed
 * from an earlier request, made by another route (a deactivate answer passed off as an activate
 * one: same body shape, same nonce) or about another machine is no answer at all. An answer that
 * names no machine (the holder's listing) is expected with `machineFingerprint: undefined`, and one
 * that names any is refused.
 */
export async function verifyAnswer(
  verifier: OfflineVerifier,
  signature: string | null,
  text: string,
  expected: { op: AnswerOp; nonce: string; machineFingerprint: string | undefined },
): Promise<VerifiedAnswer> {
  if (!signature) return fail('The answer was not signed (no Licensing-Signature header): is baseUrl the licensing service?');
  const parsed = parseAnswer(signature, text);
  if (!parsed) return fail('The answer’s Licensing-Signature is not a detached JWS of a licensing answer.');
  const { header } = parsed;
  if (header.nonce !== expected.nonce) return fail('The answer was not made for this request (its nonce differs): a replayed answer.');
  if (header.op !== expected.op) return fail(`The answer is for another operation (${header.op}, not ${expected.op}): an answer to a different request.`);
  if (header.machineFingerprint !== expected.machineFingerprint) return fail('The answer is about another machine.');
  const checked = await verifier.verifyFor(header.kid, parsed.signature, parsed.signingInput);
  if (checked === 'unknown_kid') return fail(`The answer is signed with key ${header.kid}, which neither publicKeys (the JWKS shipped with the app) nor the seller’s key endorsements vouch for.`);
  if (checked === 'bad_signature') return fail('The answer’s signature does not verify: it was altered or forged.');
  if (checked === 'compromised_key') return fail(`The answer is signed with key ${header.kid}, which the seller retired as compromised.`);
  try {
    return { ok: true, body: JSON.parse(parsed.body), serverTime: header.serverTime };
  } catch {
    return fail('The signed answer is not JSON.');
  }
}

function fail(message: string): VerifiedAnswer {
  return { ok: false, message };
}
