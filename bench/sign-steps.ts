/**
 * `bun run bench/sign-steps.ts`: what a signed validation answer costs above the signed ceiling's
 * one signature, step by step, in-process and without a store. Each step runs MICRO_N (50,000)
 * times per round; the table keeps each step's fastest of MICRO_ROUNDS (7) rounds, in wall time and
 * in CPU time (`process.cpuUsage`), so a busy machine's noise drops out.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { NodeSigner } from '../src/adapters/crypto/node-signer.ts';
import { signedAnswer } from '../src/adapters/http/signed-answer.ts';
import { answerSigner, type SignedAnswer } from '../src/app/licenses/sign-answer.ts';
import { encodeBase64url, utf8 } from '../src/domain/base64url.ts';
import { answerHeaderEncoder } from '../src/domain/signed-answer.ts';
import type { Deps } from '../src/ports/deps.ts';

const N = Number(process.env.MICRO_N ?? 50_000);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 7);
const rows: string[][] = [];
let sink: unknown;

const steps: [string, (i: number) => unknown][] = [];
const time = (name: string, fn: (i: number) => unknown) => void steps.push([name, fn]);

/** Rounds interleave the steps, so a neighbour's burst slows every step alike; each keeps its fastest round. */
function run(): void {
  const best = steps.map(() => ({ wall: Infinity, cpu: Infinity }));
  for (const [, fn] of steps) for (let i = 0; i < 2_000; i++) sink = fn(i); // warm-up (JIT)
  for (let r = 0; r < ROUNDS; r++) {
    steps.forEach(([, fn], s) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < N; i++) sink = fn(i);
      const wall = ((performance.now() - started) * 1000) / N;
      const used = process.cpuUsage(cpu);
      best[s]!.wall = Math.min(best[s]!.wall, wall);
      best[s]!.cpu = Math.min(best[s]!.cpu, (used.user + used.system) / N);
    });
  }
  steps.forEach(([name], s) => rows.push([name, best[s]!.wall.toFixed(2), best[s]!.cpu.toFixed(2)]));
}

// The signed ceiling (src/adapters/http/routes/bench-ceiling.ts), step by step and whole.
const { privateKey } = generateKeyPairSync('ed25519');
const CONSTANT_TEXT = '{"valid":true}';
const nonceOf = (i: number) => `micro-nonce-${String(i).padStart(12, '0')}`;
const ceilingInput = Buffer.from(`${nonceOf(1)}.${CONSTANT_TEXT}`);
const ceilingSignature = sign(null, ceilingInput, privateKey);
time('ceiling: input text + Buffer.from', (i) => Buffer.from(`${nonceOf(i)}.${CONSTANT_TEXT}`));
time('ceiling: Ed25519 sign (KeyObject, ~40 bytes)', () => sign(null, ceilingInput, privateKey));
time('ceiling: signature toString(base64url)', () => ceilingSignature.toString('base64url'));
time('ceiling: new Response (plain headers object)', () => new Response(CONSTANT_TEXT, { headers: { 'content-type': 'application/json', 'Licensing-Signature': 'x'.repeat(86) } }));
time('ceiling: whole handler', (i) => {
  const signature = sign(null, Buffer.from(`${nonceOf(i)}.${CONSTANT_TEXT}`), privateKey).toString('base64url');
  return new Response(CONSTANT_TEXT, { headers: { 'content-type': 'application/json', 'Licensing-Signature': signature } });
});

// The validation's signing, step by step, with an answer of the bench's shape.
const signer = new NodeSigner(new Uint8Array(32).fill(7));
const key = { kid: 'key_0123456789abcdef0123', sealedPrivateKey: signer.generate().sealedPrivateKey };
const body = '{"valid":true,"license":{"id":"lic_0123456789abcdef0123","status":"active","features":["pro"],"expiresAt":null}}';
const fingerprint = 'f'.repeat(64);
const context = (i: number) => ({ op: 'validate' as const, nonce: nonceOf(i), machineFingerprint: fingerprint });
const encodeHeader = answerHeaderEncoder(key.kid, 'validate');
const header = encodeHeader({ ...context(1), serverTime: Date.now() });
const payload = encodeBase64url(utf8.encode(body));
const input = utf8.encode(`${header}.${payload}`);
const signature = signer.sign(key.sealedPrivateKey, input);
const request = new Request('http://127.0.0.1/v1/licenses/validate', { method: 'POST', headers: { 'licensing-nonce': nonceOf(1) } });
const result = JSON.parse(body) as unknown;
time('validate: header (encoder: JSON of nonce, fingerprint, base64url)', (i) => encodeHeader({ ...context(i), serverTime: Date.now() }));
time('validate: payload base64url (utf8 + toBase64)', () => encodeBase64url(utf8.encode(body)));
time('validate: input text + utf8.encode', () => utf8.encode(`${header}.${payload}`));
time(`validate: Ed25519 sign via NodeSigner (${input.length} bytes)`, () => signer.sign(key.sealedPrivateKey, input));
time(`validate: the same, the ceiling's input (${ceilingInput.length} bytes)`, () => signer.sign(key.sealedPrivateKey, ceilingInput));
time('validate: signature base64url', () => encodeBase64url(signature));
const signatureText = encodeBase64url(signature);
time('validate: detached + compact text', () => [`${header}..${signatureText}`, `${header}.${payload}.${signatureText}`]);
time('validate: JSON of the answer (also unsigned)', () => JSON.stringify(result));
const ready: SignedAnswer = { detached: `${header}..${signatureText}`, compact: '', serverTime: 0, chain: [] };
const JSON_HEADERS = new Headers({ 'content-type': 'application/json' });
time('validate: Response, headers as a plain object', () => new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'Licensing-Signature': ready.detached } }));
time('validate: Response, shared Headers then set', () => {
  const response = new Response(body, { status: 200, headers: JSON_HEADERS });
  response.headers.set('Licensing-Signature', ready.detached);
  return response;
});
time('validate: signedAnswer around a ready signature (JSON, Accept, Response)', (i) => signedAnswer(() => ready, request, 'dev_1', result, context(i)));

const started = Date.now();
let ticks = 0;
const deps = {
  // A clock that stays inside the key's ACTIVE_KEY_TTL_MS: every call takes the held key, no promise.
  clock: { now: () => started + (ticks++ % 1_000) },
  signer,
  signingKeys: { active: async () => ({ ...key, active: true, endorsement: null }), list: async () => [] },
} as unknown as Pick<Deps, 'clock' | 'signer' | 'signingKeys'>;
const answer = answerSigner(deps);
await answer('dev_1', body, context(0));
time('validate: answerSigner whole', (i) => answer('dev_1', body, context(i)) as SignedAnswer);
time('validate: signedAnswer whole (JSON, sign, Response)', (i) => signedAnswer(answer, request, 'dev_1', result, context(i)));

run();
console.log(`\n| step (fastest of ${ROUNDS} rounds of ${N.toLocaleString('en')}) | µs per call | CPU µs per call |\n|---|---:|---:|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
void sink;
