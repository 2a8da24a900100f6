import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Sandbox mode without MASTER_KEY: one key generated on first start and kept beside the database,
 * owner-only, so restarts can still open the sealed signing keys.
 */
export function sandboxMasterKey(databasePath: string): Uint8Array {
  if (databasePath === ':memory:') return new Uint8Array(randomBytes(32));
  const file = masterKeyFile(databasePath);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key.`);
  return new Uint8Array(key);
}

/** Where sandboxMasterKey keeps the key for the database at `databasePath`: master.key beside it. */
export function masterKeyFile(databasePath: string): string {
  return join(dirname(databasePath), 'master.key');
}
