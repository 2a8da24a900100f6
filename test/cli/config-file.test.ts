import { afterAll, describe, expect, test } from 'bun:test';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, saveConfig } from '../../src/cli/config.ts';
import { CliError } from '../../src/cli/errors.ts';

/**
 * The config file holds the seller's secret key and the buyer's identity token. It is written
 * through a temporary file this process creates itself (O_EXCL, mode 0600) and then renamed into
 * place: a file or symlink someone planted at either name is never written through.
 */

const root = mkdtempSync(join(tmpdir(), 'cli-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A folder with a config path in it, and a victim file elsewhere that a planted symlink points at. */
function place() {
  const dir = join(root, `case-${++n}`);
  mkdirSync(dir, { recursive: true });
  const victim = join(root, `victim-${n}.txt`);
  writeFileSync(victim, 'precious\n');
  return { dir, path: join(dir, 'config.json'), victim };
}
const SECRET = { seller: { apiKey: 'sk_test_secret_value' } };

describe('saving the config file', () => {
  test('the file is the owner’s only (0600), and reads back', () => {
    const { path } = place();
    saveConfig(path, SECRET);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadConfig(path)).toEqual(SECRET);
  });

  test('a symlink at the config path is replaced, not written through', () => {
    const { path, victim } = place();
    symlinkSync(victim, path);

    saveConfig(path, SECRET);

    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadConfig(path)).toEqual(SECRET);
  });

  test('symlinks planted at the temporary names a writer could predict are never followed', () => {
    const { dir, path, victim } = place();
    // Every name of the form ".<pid>.<milliseconds>.config.tmp" (the earlier writer's) around now:
    // none of them may be opened.
    const now = Date.now();
    for (let t = now - 50; t < now + 1_000; t++) symlinkSync(victim, join(dir, `.${process.pid}.${t}.config.tmp`));

    saveConfig(path, SECRET);

    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(loadConfig(path)).toEqual(SECRET);
  });

  test('a symlink already at the temporary name is left alone: another name is tried, then the save fails', () => {
    const { dir, path, victim } = place();
    symlinkSync(victim, join(dir, '.planted.tmp'));
    const names = ['.planted.tmp', '.fresh.tmp'];

    saveConfig(path, SECRET, () => names.shift()!);

    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(loadConfig(path)).toEqual(SECRET);
    expect(lstatSync(join(dir, '.planted.tmp')).isSymbolicLink()).toBe(true);

    const always = () => '.planted.tmp';
    let thrown: unknown;
    try {
      saveConfig(path, { seller: { apiKey: 'sk_other' } }, always);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliError);
    expect((thrown as CliError).code).toBe('config_unwritable');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(loadConfig(path)).toEqual(SECRET);
  });

  test('no temporary file is left behind', () => {
    const { dir, path } = place();
    saveConfig(path, SECRET);
    saveConfig(path, { ...SECRET, publishableKeys: { dev_1: 'pk_1' } });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
