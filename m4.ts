import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeSigner } from './src/adapters/crypto/node-signer.ts';
import { sha256Hashing } from './src/adapters/crypto/sha256-hashing.ts';
import { createHttpApp } from './src/adapters/http/server.ts';
import { openSqliteStore } from './src/adapters/sqlite/sqlite-store.ts';
import { jsonLogger } from './src/adapters/system/logger.ts';
import { randomIds } from './src/adapters/system/random-ids.ts';
import { systemClock } from './src/adapters/system/system-clock.ts';
import type { Deps } from './src/ports/deps.ts';
const B = '.bench';
const meta = JSON.parse(readFileSync(join(B, 'seed.json'), 'utf8'));
const sample = readFileSync(join(B, 'sample.txt'), 'utf8').trim().split('\n').slice(0, 20000).map((l) => l.split(' ') as [string, string]);
const store = openSqliteStore(join(B, 'bench.db'), { owner: true, cacheEntries: 100000 });
const deps: Deps = { ...store, clock: systemClock, ids: randomIds, hashing: sha256Hashing, signer: new NodeSigner(Buffer.from(meta.masterKey, 'base64')), issuer: 'x' };
const app = createHttpApp(deps, { log: jsonLogger('warn'), ping: store.ping, publicBaseUrl: 'http://x', version: 'b', benchCeiling: true });
const req = (path: string, i: number) => { const [k, fp] = sample[i % sample.length]!; const body = JSON.stringify({ licenseKey: k, machineFingerprint: fp }); return new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-api-key': meta.publishableKey }, body }); };
async function time(name: string, fn: (i: number) => Promise<unknown>, n = 100000) {
  for (let i = 0; i < 5000; i++) await fn(i);
  const t = performance.now(); for (let i = 0; i < n; i++) await fn(i);
  return (((performance.now() - t) * 1000) / n);
}
for (let r = 0; r < 3; r++) {
  const c = await time('ceiling', async (i) => (await app.fetch(req('/v1/bench/ceiling', i))).text());
  const v = await time('validate', async (i) => (await app.fetch(req('/v1/licenses/validate', i))).text());
  console.log('ceiling', c.toFixed(2), 'validate', v.toFixed(2), 'extra', (v - c).toFixed(2), 'ratio', (c / v).toFixed(2));
}
