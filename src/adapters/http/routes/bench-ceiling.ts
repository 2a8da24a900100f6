import { generateKeyPairSync, sign } from 'node:crypto';
import { Elysia } from 'elysia';
import { NONCE_HEADER, SIGNATURE_HEADER } from '../signed-answer.ts';
import { ValidateBody } from './licenses/schemas.ts';

const CONSTANT = { valid: true } as const;
const CONSTANT_TEXT = JSON.stringify(CONSTANT);

/**
 * The benchmark's ceilings, mounted only with LICENSING_BENCH_CEILING=1: a POST through the same
 * server, body validated against the same schema as /licenses/validate, answering a constant
 * (`/bench/ceiling`, the bare ceiling), and the same plus one Ed25519 signature over the answer and
 * the request's nonce, sent in Licensing-Signature (`/bench/ceiling-signed`, the signed ceiling).
 */
export function benchCeilingRoute() {
  // A key of this process alone: the signed ceiling measures the signature, not a key lookup.
  const { privateKey } = generateKeyPairSync('ed25519');
  return new Elysia({ name: 'bench-ceiling' })
    .post('/bench/ceiling', () => CONSTANT, { body: ValidateBody, detail: { hide: true } })
    .post(
      '/bench/ceiling-signed',
      ({ request }) => {
        const signed = `${request.headers.get(NONCE_HEADER) ?? ''}.${CONSTANT_TEXT}`;
        const signature = sign(null, Buffer.from(signed), privateKey).toString('base64url');
        return new Response(CONSTANT_TEXT, { headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature } });
      },
      { body: ValidateBody, detail: { hide: true } },
    );
}
