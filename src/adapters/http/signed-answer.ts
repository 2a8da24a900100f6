import type { AnswerSigner, SignedAnswer } from '../../app/licenses/sign-answer.ts';
import { InvalidRequestError } from '../../domain/errors.ts';
import { NONCE_PATTERN, type AnswerContext } from '../../domain/signed-answer.ts';
import { SECURITY } from './auth.ts';

/** docs/signed-answers.md: the request's nonce in, the detached JWS out. */
export const NONCE_HEADER = 'Licensing-Nonce';
export const SIGNATURE_HEADER = 'Licensing-Signature';
/** docs/key-rotation.md: the seller's key endorsements and retirements, comma-separated, newest first. */
export const KEY_CHAIN_HEADER = 'Licensing-Key-Chain';
export const JOSE_MEDIA_TYPE = 'application/jose';

const NONCE_PROBLEM = `${NONCE_HEADER} must be 16 to 128 characters from A-Z, a-z, 0-9, "-" and "_".`;

/** The request's nonce; undefined when it sent none (older clients), a 400 when it is malformed. */
export function readNonce(request: Request): string | undefined {
  const nonce = request.headers.get(NONCE_HEADER);
  if (nonce === null) return undefined;
  if (!NONCE_PATTERN.test(nonce)) throw new InvalidRequestError(NONCE_PROBLEM);
  return nonce;
}

/**
 * The unsigned answer's headers (and the signed JSON answer's first), built once: Bun copies a Headers
 * instance into each Response at a third of the cost of reading a plain object's entries (measured on
 * the unsigned validation path).
 * Shared, so never changed: each Response gets its own copy (request-route.ts adds X-Request-Id there).
 */
const JSON_HEADERS = new Headers({ 'content-type': 'application/json' });

/** True when the request asked for the compact JWS as the body. */
export function wantsJose(request: Request): boolean {
  const accept = request.headers.get('accept');
  return accept !== null && accept.toLowerCase().includes(JOSE_MEDIA_TYPE);
}

/**
 * The answer as the client asked for it: JSON with the detached JWS in Licensing-Signature, or,
 * for `Accept: application/jose`, the compact JWS itself. The JSON text is serialized here, once,
 * so the bytes signed are the bytes sent. A request that asked for neither a signature over its
 * nonce nor a JWS body (no Licensing-Nonce, no Accept: application/jose) is answered the same JSON
 * unsigned: nobody can check a signature that binds no request (docs/signed-answers.md, "Unasked
 * answers"). Activation routes answer through the same function; each route names its own `op` in
 * the context, so one route's answer cannot pass for another's.
 */
export function signedAnswer(
  sign: AnswerSigner,
  request: Request,
  developerId: string,
  body: unknown,
  context: Omit<AnswerContext, 'serverTime'>,
  status = 200,
): Response | Promise<Response> {
  const text = JSON.stringify(body);
  const jose = wantsJose(request);
  if (context.nonce === undefined && !jose) return new Response(text, { status, headers: JSON_HEADERS });
  const signed = sign(developerId, text, context);
  // The seller's key is held but for its first answer in ACTIVE_KEY_TTL_MS: only then a promise.
  return signed instanceof Promise ? signed.then((s) => signedResponse(s, text, jose, status)) : signedResponse(signed, text, jose, status);
}

const JOSE_HEADERS = new Headers({ 'content-type': JOSE_MEDIA_TYPE });
/** Each key chain's header value, joined once per chain read (sign-answer.ts keeps one array per key read). */
const joinedChains = new WeakMap<readonly string[], string>();

/**
 * The content type from a shared Headers instance and the signature set on the Response's own copy:
 * 0.2 to 0.3 µs cheaper than a plain headers object (bench/sign-steps.ts), the same headers in the same order.
 */
function signedResponse(signed: SignedAnswer, text: string, jose: boolean, status: number): Response {
  const response = new Response(jose ? signed.compact : text, { status, headers: jose ? JOSE_HEADERS : JSON_HEADERS });
  response.headers.set(SIGNATURE_HEADER, signed.detached);
  if (signed.chain.length > 0) response.headers.set(KEY_CHAIN_HEADER, joinedChain(signed.chain));
  return response;
}

function joinedChain(chain: readonly string[]): string {
  let joined = joinedChains.get(chain);
  if (joined === undefined) joinedChains.set(chain, (joined = chain.join(', ')));
  return joined;
}

/** The route description's paragraph on signing (the full format is in docs/signed-answers.md). */
export const SIGNED_ANSWER_DOC = ` Every 200 answer to a request that sends a ${NONCE_HEADER} or Accept: ${JOSE_MEDIA_TYPE} is signed with the seller's current signing key (the kid in GET /developers/{id}/jwks.json): ${SIGNATURE_HEADER} holds a detached JWS (RFC 7515 appendix F, alg EdDSA, typ licensing-answer+jws) whose payload is the response body byte for byte and whose protected header carries op (the operation answered: validate, activate, deactivate or activations; check it, as activate and deactivate answers look alike), serverTime (the server's clock, ms), the request's nonce and machineFingerprint. Send a fresh ${NONCE_HEADER} (16 to 128 of A-Z a-z 0-9 - _; anything else is a 400) to get a signed answer and detect replays; send Accept: ${JOSE_MEDIA_TYPE} to get the body itself as a compact JWS. A request with neither gets the same JSON unsigned (no ${SIGNATURE_HEADER}). After a key rotation, ${KEY_CHAIN_HEADER} carries the seller's key endorsements and retirements (docs/key-rotation.md), so an app that knows only an older key can follow it to the signing one.`;

/** OpenAPI: the request header and the response header, for the operation's `detail`. */
export const SIGNED_ANSWER_PARAMETERS = [
  {
    name: NONCE_HEADER,
    in: 'header' as const,
    required: false,
    description: 'A fresh random value per request, echoed as `nonce` in the signed header. Without it (and without Accept: application/jose) the answer is not signed.',
    schema: { type: 'string' as const, pattern: NONCE_PATTERN.source, example: 'k3Jd9f0sQm2Lx8vT4pZa1w' },
  },
];

/** A signed route's `detail`: its description with the paragraph on signing, the nonce header, any API key. */
export const signedAnswerDetail = (detail: { tags: string[]; summary: string; description: string }) => ({
  ...detail,
  description: detail.description + SIGNED_ANSWER_DOC,
  parameters: SIGNED_ANSWER_PARAMETERS,
  security: SECURITY.any,
});

type Operation = { parameters?: { name?: string; in?: string }[]; responses?: Record<string, unknown> };
type Response200 = { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };

/**
 * The OpenAPI document, completed: every operation that takes Licensing-Nonce (SIGNED_ANSWER_PARAMETERS)
 * answers 200 (and 201) with the Licensing-Signature header, and with application/jose when asked.
 */
export function documentSignedAnswers(document: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const operation of Object.values(document.paths ?? {}).flatMap((methods) => Object.values(methods))) {
    if (!operation.parameters?.some((p) => p.in === 'header' && p.name === NONCE_HEADER)) continue;
    for (const code of ['200', '201']) {
      const ok = (operation.responses?.[code] ?? null) as Response200 | null;
      if (ok) signResponse(ok);
    }
  }
}

function signResponse(ok: Response200): void {
  ok.headers = {
    [SIGNATURE_HEADER]: {
      description: 'Only when the request sent Licensing-Nonce or Accept: application/jose. Detached JWS (header..signature, RFC 7515 appendix F) over the body; its protected header has alg EdDSA, kid, typ licensing-answer+jws, op (validate, activate, deactivate or activations: the operation this answers), serverTime (ms), nonce and machineFingerprint. docs/signed-answers.md.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.\\.[A-Za-z0-9_-]+$' },
    },
    [KEY_CHAIN_HEADER]: {
      description: 'Only once the seller has rotated its signing key: the key endorsements (typ licensing-key-endorsement+jws, signed by the key before) and compromise retirements (typ licensing-key-retirement+jws, signed by the successor), compact JWS separated by ", ", newest first. An application that trusts an older key follows them to the key that signed this answer. docs/key-rotation.md.',
      schema: { type: 'string' },
    },
  };
  ok.content = { ...ok.content, [JOSE_MEDIA_TYPE]: { schema: { type: 'string', description: 'With Accept: application/jose: the same answer as a compact JWS whose payload is the JSON body.' } } };
}
