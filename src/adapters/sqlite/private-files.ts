import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Signing keys (sealed), customers' e-mails and phones, token hashes: the owner's eyes only. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * Before SQLite opens `path`: the folders it needs are made owner-only (only those made here: an
 * existing folder, say the working directory, is the operator's), and the database file is made
 * (empty is a valid database) or set owner-only, whatever the umask. SQLite gives its -wal and -shm
 * files the database file's permissions.
 */
export function preparePrivateDatabase(path: string): void {
  makePrivateFolders(dirname(path));
  try {
    closeSync(openSync(path, 'wx', FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, FILE_MODE);
}

/** The -wal and -shm files of a database made before this rule (or by another tool): owner-only too. */
export function tightenSidecars(path: string): void {
  for (const file of [`${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) chmodSync(file, FILE_MODE);
  }
}

/** Makes `folder` and any parent missing, owner-only (only the ones made here). */
export function makePrivateFolders(folder: string): void {
  const first = mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  if (first === undefined) return;
  // mkdirSync's mode passes through the umask; every folder it made, from the deepest up to the first.
  for (let made = folder; ; made = dirname(made)) {
    chmodSync(made, FOLDER_MODE);
    if (made === first || dirname(made) === made) break;
  }
}
