/**
 * `bun run bench/micro.ts`: times the pieces of the validation hot path in-process, against the
 * seeded store (run `bun run bench` once first), to show where a request's time goes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hashing } from '../src/adapters/crypto/sha256-hashing.ts';
import { createHttpApp } from '../src/adapters/http/server.ts';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from '../src/adapters/system/logger.ts';
import { systemClock } from '../src/adapters/system/system-clock.ts';
import { authenticateApiKey } from '../src/app/developers/authenticate.ts';
import { answerSigner } from '../src/app/licenses/sign-answer.ts';
import { validateLicense } from '../src/app/licenses/validate-license.ts';
import { composeDeps } from '../src/compose.ts';
import { settingsWith } from '../src/domain/settings.ts';
import { BENCH_DIR, ISSUER } from './seed.ts';

const meta = JSON.parse(readFileSync(join(BENCH_DIR, 'seed.json'), 'utf8')) as { masterKey: string; developerId: string; publishableKey: string };
const sample = readFileSync(join(BENCH_DIR, 'sample.txt'), 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string]);
const hashes = sample.map(([key]) => sha256Hashing.hash(key));
const store = openSqliteStore(join(BENCH_DIR, 'bench.db'), { owner: true }); // as the service opens it
// No rate limits: the pieces are timed, not the counters.
const noLimits = { validateRateLimitPerMinute: 0, addressLimits: { invalidValidationsPerMinute: 0, signupsPerHour: 0, loginInitsPerHour: 0, checkoutInitsPerMinute: 0, trialsPerHour: 0 } };
const settings = settingsWith({ issuer: ISSUER, apiBaseUrl: `${ISSUER}/v1`, ...noLimits });
const deps = composeDeps({ store, clock: systemClock, masterKey: Buffer.from(meta.masterKey, 'base64'), settings });
const app = createHttpApp(deps, { log: jsonLogger('warn'), ping: store.ping, publicBaseUrl: ISSUER, version: 'bench', benchCeiling: true });

const sign = answerSigner(deps);
const rows: string[][] = [];
async function time(name: string, fn: (i: number) => unknown, iterations = Number(process.env.MICRO_N ?? 50_000)): Promise<void> {
  for (let i = 0; i < Math.min(2_000, iterations); i++) await fn(i); // warm-up (JIT, caches)
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await fn(i);
  const us = ((performance.now() - started) * 1000) / iterations;
  rows.push([name, us.toFixed(2), Math.round(1e6 / us).toLocaleString('en')]);
  console.log(`  ${name}: ${us.toFixed(2)} µs`);
}

const pick = (i: number) => sample[i % sample.length]!;
const rawSelect = store.sqlite.query(
  'SELECT id, developer_id, status, features, expires_at, machine_fingerprint FROM licenses WHERE key_hash = ?',
);
let nonces = 0;
const request = (path: string, i: number, nonce = false) => {
  const [licenseKey, machineFingerprint] = pick(i);
  const signed: Record<string, string> = nonce ? { 'licensing-nonce': `micro-nonce-${String(++nonces).padStart(12, '0')}` } : {};
  return new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': meta.publishableKey, ...signed },
    body: JSON.stringify({ licenseKey, machineFingerprint }),
  });
};

await time('sha256 of a license key', (i) => sha256Hashing.hash(pick(i)[0]));
await time('bun:sqlite raw prepared select by key_hash (random keys)', (i) => rawSelect.get(hashes[i % hashes.length]!));
await time('bun:sqlite raw prepared select by key_hash (one key)', () => rawSelect.get(hashes[0]!));
await time('drizzle prepared findStateByKeyHash (random keys)', (i) => store.licenses.findStateByKeyHash(hashes[i % hashes.length]!));
await time('authenticateApiKey (pk, sha256 + lookup)', () => authenticateApiKey(deps, meta.publishableKey));
await time('validateLicense use case (random bound keys)', (i) => validateLicense(deps, meta.developerId, { licenseKey: pick(i)[0], machineFingerprint: pick(i)[1], clientAddress: '127.0.0.1' }));
await time('new Request + JSON body (cost of the harness)', (i) => request('/v1/bench/ceiling', i));
await time('app.handle POST /v1/bench/ceiling', (i) => app.handle(request('/v1/bench/ceiling', i)));
await time('app.handle POST /v1/bench/ceiling-signed (nonce)', (i) => app.handle(request('/v1/bench/ceiling-signed', i, true)));
await time('answerSigner: one signed answer (header, payload, Ed25519)', () => sign(meta.developerId, '{"valid":true,"license":{"id":"lic_x","status":"active","features":["pro"],"expiresAt":null}}', { op: 'validate', nonce: 'micro-nonce-000000000000', machineFingerprint: 'f'.repeat(64) }));
await time('app.handle POST /v1/licenses/validate (unsigned)', (i) => app.handle(request('/v1/licenses/validate', i)));
await time('app.handle POST /v1/licenses/validate (nonce, signed)', (i) => app.handle(request('/v1/licenses/validate', i, true)));
await time('app.handle + read body, validate (nonce, signed)', async (i) => (await app.handle(request('/v1/licenses/validate', i, true))).text());

console.log('\n| piece | µs per call | calls/s |\n|---|---:|---:|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
store.sqlite.close();
