import type { Database } from 'bun:sqlite';
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from '../system/logger.ts';
import { makePrivateFolders } from './private-files.ts';

export interface SqliteBackupOptions {
  /** The folder the snapshots go to (made owner-only if missing). */
  dir: string;
  /** The newest this many snapshots are kept; older ones are deleted after each new one. */
  keep: number;
  /** The generated master key file (sandbox mode without MASTER_KEY): copied beside the snapshots. */
  masterKeyFile?: string | null;
  now?: () => Date;
}

export interface Snapshot {
  path: string;
  bytes: number;
  /** Older snapshots deleted to keep `keep`. */
  removed: string[];
}

/** licensing-2026-11-27T11-15-00-123Z.db: the time it was taken, UTC, in an order `sort` keeps. */
const SNAPSHOT_NAME = /^licensing-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.db$/;
const PARTIAL_NAME = /^\.licensing-.*\.db\.tmp$/;

export function snapshotName(at: Date): string {
  return `licensing-${at.toISOString().replace(/[:.]/g, '-')}.db`;
}

/** When the snapshot named `name` was taken, or null for another file. */
export function snapshotTime(name: string): Date | null {
  if (!SNAPSHOT_NAME.test(name)) return null;
  const m = /^licensing-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z\.db$/.exec(name)!;
  return new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
}

/** The snapshots in `dir`, oldest first. */
export function listSnapshots(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => SNAPSHOT_NAME.test(name)).sort();
}

/**
 * One consistent copy of the open database, taken on the owning connection: `VACUUM INTO` reads in
 * one transaction (what was committed before it started, nothing after), and works under the
 * exclusive lock that keeps every other process (the `sqlite3` shell's `.backup` too) out. It is
 * written to a hidden temporary name made owner-only before a byte goes in, flushed to disk
 * (SQLite does not fsync what VACUUM INTO writes), then renamed: a snapshot under its final name is
 * always whole. The generated master key goes beside it: the sealed signing keys need it.
 */
export function snapshotSqlite(sqlite: Database, options: SqliteBackupOptions): Snapshot {
  const at = (options.now ?? (() => new Date()))();
  makePrivateFolders(options.dir);
  for (const name of readdirSync(options.dir)) if (PARTIAL_NAME.test(name)) rmSync(join(options.dir, name), { force: true });
  const name = snapshotName(at);
  const path = join(options.dir, name);
  const partial = join(options.dir, `.${name}.tmp`);
  // VACUUM INTO accepts an empty file: made here with the mode, whatever the umask.
  closeSync(openSync(partial, 'w', 0o600));
  chmodSync(partial, 0o600);
  try {
    sqlite.run('VACUUM INTO ?', [partial]);
    syncFile(partial);
    renameSync(partial, path);
    syncFile(options.dir);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  if (options.masterKeyFile) copyMasterKey(options.masterKeyFile, options.dir);
  const snapshots = listSnapshots(options.dir);
  const removed = snapshots.slice(0, Math.max(0, snapshots.length - Math.max(1, options.keep)));
  for (const old of removed) rmSync(join(options.dir, old), { force: true });
  return { path, bytes: statSync(path).size, removed };
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function copyMasterKey(source: string, dir: string): void {
  const target = join(dir, 'master.key');
  if (resolve(target) === resolve(source)) return;
  const key = readFileSync(source);
  if (existsSync(target) && readFileSync(target).equals(key)) return;
  const partial = join(dir, '.master.key.tmp');
  writeFileSync(partial, key, { mode: 0o600 });
  chmodSync(partial, 0o600);
  syncFile(partial);
  renameSync(partial, target);
}

export interface SqliteBackups {
  /** No further snapshot starts (one under way is synchronous, so none is ever cut short). */
  stop(): void;
}

/** A snapshot every `everyMs` in the owning process, each one logged; a failed one is logged and the next is tried. */
export function startSqliteBackups(
  sqlite: Database,
  options: SqliteBackupOptions & { everyMs: number },
  log: Logger,
  /** Told of each snapshot written (the metrics page's backup age). */
  written: (at: number) => void = () => undefined,
): SqliteBackups {
  const timer = setInterval(() => {
    const started = performance.now();
    try {
      const snapshot = snapshotSqlite(sqlite, options);
      log.info('backup written', { path: snapshot.path, bytes: snapshot.bytes, ms: Math.round(performance.now() - started), removed: snapshot.removed.length });
      written(Date.now());
    } catch (error) {
      log.error('backup failed; tried again at the next interval', { dir: options.dir, error: String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200) });
    }
  }, options.everyMs);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
