/** Before any load: the requests wrk will send really take the hot path and really succeed. */
import { readFileSync } from 'node:fs';

export async function checkResponses(url: string, apiKey: string, sampleFile: string, count = 5): Promise<void> {
  const lines = readFileSync(sampleFile, 'utf8').trim().split('\n').slice(0, count);
  if (lines.length === 0) throw new Error(`${sampleFile} is empty.`);
  const post = async (path: string, licenseKey: string, machineFingerprint: string, nonce?: string) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...(nonce ? { 'licensing-nonce': nonce } : {}) },
      body: JSON.stringify({ licenseKey, machineFingerprint }),
    });
    return { status: response.status, signature: response.headers.get('licensing-signature'), body: (await response.json()) as Record<string, unknown> };
  };
  for (const line of lines) {
    const [key, fingerprint] = line.split(' ') as [string, string];
    const ok = await post('/v1/licenses/validate', key, fingerprint);
    const license = ok.body.license as { status?: string; features?: string[] } | undefined;
    if (ok.status !== 200 || ok.body.valid !== true || license?.status !== 'active' || license.features?.[0] !== 'pro') {
      throw new Error(`validate did not answer valid:true for a seeded key: ${ok.status} ${JSON.stringify(ok.body)}`);
    }
    // The seeded licenses are already bound: another machine must not take them (so the load writes nothing).
    const other = await post('/v1/licenses/validate', key, 'f'.repeat(64));
    if (other.status !== 200 || other.body.reason !== 'machine_mismatch') {
      throw new Error(`a foreign fingerprint was not machine_mismatch: ${other.status} ${JSON.stringify(other.body)}`);
    }
  }
  const [key, fingerprint] = lines[0]!.split(' ') as [string, string];
  // The signed rows measure signing: a nonce must get a signature, and its absence none.
  const nonce = 'bench-check-nonce-0001';
  const signed = await post('/v1/licenses/validate', key, fingerprint, nonce);
  const unsigned = await post('/v1/licenses/validate', key, fingerprint);
  if (signed.body.valid !== true || !signed.signature || unsigned.signature !== null) {
    throw new Error(`validate with a nonce was not signed, or without one was: ${signed.signature} / ${unsigned.signature}`);
  }
  for (const [path, withNonce] of [['/v1/bench/ceiling', undefined], ['/v1/bench/ceiling-signed', nonce]] as const) {
    const ceiling = await post(path, key, fingerprint, withNonce);
    if (ceiling.status !== 200 || ceiling.body.valid !== true || (withNonce !== undefined) !== (ceiling.signature !== null)) {
      throw new Error(`${path} did not answer as a ceiling (is LICENSING_BENCH_CEILING honoured?): ${ceiling.status} ${JSON.stringify(ceiling.body)}`);
    }
  }
}

/**
 * Every sample key validated once, `concurrency` at a time, so the measured load reads the license
 * cache as a busy server's steady state does. wrk's own warm-up draws keys at random: at 40,000 req/s
 * its 8 s see each of the 20,000 keys many times, but on a loaded machine doing 3,000 req/s they
 * leave about a third unseen, and those first reads (SQLite, and the lastSeenAt each one notes)
 * were measured as if they were the hot path (2026-11-29: 245 µs of server CPU per validation in
 * the first 5 s, 100 µs once every key had been seen).
 */
export async function validateEachKeyOnce(url: string, apiKey: string, sampleFile: string, concurrency = 32): Promise<number> {
  const lines = readFileSync(sampleFile, 'utf8').trim().split('\n');
  let next = 0;
  const worker = async () => {
    while (next < lines.length) {
      const [licenseKey, machineFingerprint] = lines[next++]!.split(' ') as [string, string];
      const response = await fetch(`${url}/v1/licenses/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ licenseKey, machineFingerprint }),
      });
      if (response.status !== 200) throw new Error(`warming the license cache: validate answered ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return lines.length;
}
