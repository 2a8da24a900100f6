/**
 * An experimental twin of src/main.ts for bench/variants.ts: the same adapters and app, with knobs
 * that src/ does not have, to measure what a change would buy before anyone makes it.
 * BENCH_V_CACHE_KB: PRAGMA cache_size (KiB) · BENCH_V_MMAP_MB: PRAGMA mmap_size ·
 * BENCH_V_EXCLUSIVE=1: PRAGMA locking_mode = EXCLUSIVE (no fcntl/fstat per read transaction) ·
 * BENCH_V_APIKEY_CACHE=1: API-key records memoized by digest · BENCH_V_RAW_SELECT=1: the license
 * lookup through bun:sqlite directly instead of drizzle · BENCH_V_STATE_CACHE=1: license states
 * memoized by key digest (an upper bound: no invalidation, the load never writes) · BENCH_V_LEAN=1: also mounts
 * POST /v1/bench/validate-lean (same use case and auth, no derive, no response schema).
 */
import { Elysia } from 'elysia';
import { NodeSigner } from '../src/adapters/crypto/node-signer.ts';
import { sha256Hashing } from '../src/adapters/crypto/sha256-hashing.ts';
import { anyApiKey } from '../src/adapters/http/auth.ts';
import { ValidateBody } from '../src/adapters/http/schemas.ts';
import { createHttpApp } from '../src/adapters/http/server.ts';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from '../src/adapters/system/logger.ts';
import { randomIds } from '../src/adapters/system/random-ids.ts';
import { systemClock } from '../src/adapters/system/system-clock.ts';
import { validateLicense } from '../src/app/licenses/validate-license.ts';
import type { ApiKeyRecord } from '../src/domain/developer.ts';
import type { Deps } from '../src/ports/deps.ts';
import type { LicenseState } from '../src/ports/license-repository.ts';

const env = process.env;
const path = env.DATABASE_URL!.replace(/^sqlite:/, '');
const store = openSqliteStore(path);
if (env.BENCH_V_CACHE_KB) store.sqlite.run(`PRAGMA cache_size = -${Number(env.BENCH_V_CACHE_KB)}`);
if (env.BENCH_V_MMAP_MB) store.sqlite.run(`PRAGMA mmap_size = ${Number(env.BENCH_V_MMAP_MB) * 1024 * 1024}`);
if (env.BENCH_V_EXCLUSIVE === '1') store.sqlite.run('PRAGMA locking_mode = EXCLUSIVE');

const developers = store.developers;
if (env.BENCH_V_APIKEY_CACHE === '1') {
  const cache = new Map<string, ApiKeyRecord | null>();
  const find = developers.findApiKeyByHash.bind(developers);
  developers.findApiKeyByHash = async (hash) => {
    if (!cache.has(hash)) cache.set(hash, await find(hash));
    return cache.get(hash)!;
  };
}
const licenses = store.licenses;
if (env.BENCH_V_RAW_SELECT === '1') {
  const byHash = store.sqlite.query<
    { id: string; developerId: string; storedStatus: 'active' | 'revoked'; features: string; expiresAt: number | null; machineFingerprint: string | null },
    [string]
  >(
    'SELECT id, developer_id AS developerId, status AS storedStatus, features, expires_at AS expiresAt, machine_fingerprint AS machineFingerprint FROM licenses WHERE key_hash = ?',
  );
  licenses.findStateByKeyHash = async (hash): Promise<LicenseState | null> => {
    const row = byHash.get(hash);
    return row ? { ...row, features: JSON.parse(row.features) as string[] } : null;
  };
}
if (env.BENCH_V_STATE_CACHE === '1') {
  const cache = new Map<string, LicenseState | null>();
  const find = licenses.findStateByKeyHash.bind(licenses);
  licenses.findStateByKeyHash = async (hash) => {
    let state = cache.get(hash);
    if (state === undefined) cache.set(hash, (state = await find(hash)));
    return state;
  };
}

const deps: Deps = {
  ...store,
  developers,
  licenses,
  clock: systemClock,
  ids: randomIds,
  hashing: sha256Hashing,
  signer: new NodeSigner(new Uint8Array(Buffer.from(env.MASTER_KEY!, 'base64'))),
  issuer: env.PUBLIC_BASE_URL ?? 'http://localhost:3000',
};
const app = createHttpApp(deps, { log: jsonLogger('warn'), ping: store.ping, publicBaseUrl: deps.issuer, version: 'variant', benchCeiling: true });
if (env.BENCH_V_LEAN === '1') {
  app.use(
    new Elysia().post(
      '/v1/bench/validate-lean',
      async ({ request, body }) => validateLicense(deps, (await anyApiKey(deps, request)).developerId, body),
      { body: ValidateBody },
    ),
  );
}
const server = Bun.serve({ port: Number(env.PORT), hostname: env.HOST, development: false, fetch: app.fetch });
process.on('SIGTERM', () => {
  void server.stop().then(() => {
    store.sqlite.close();
    process.exit(0);
  });
});
