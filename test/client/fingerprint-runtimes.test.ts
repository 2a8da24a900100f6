import { beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, hostname } from 'node:os';
import { join } from 'node:path';
import { userOfUid } from '../../src/client/fingerprint.ts';
import { tempDirs } from './support.ts';

/**
 * One machine, one fingerprint: a license activated by the compiled CLI must not be
 * machine_mismatch in a Node or Bun application on the same machine, whatever $USER says.
 */
const ROOT = join(import.meta.dir, '..', '..');
const tempDir = tempDirs();
const NOBODY_UID = 4242; // no passwd entry on this machine (checked below)
let dir = '';
let runtimes: Record<string, string[]> = {};

beforeAll(async () => {
  dir = tempDir();
  chmodSync(dir, 0o755); // readable by the uid without a passwd entry too
  const entry = join(dir, 'print-fingerprint.ts');
  writeFileSync(entry, `import { machineFingerprint } from ${JSON.stringify(join(ROOT, 'src/client/index.ts'))};\nconsole.log(await machineFingerprint());\n`);
  for (const target of ['bun', 'node'] as const) {
    const built = await Bun.build({ entrypoints: [entry], target, format: 'esm', outdir: join(dir, target), naming: 'app.mjs' });
    if (!built.success) throw new Error(built.logs.join('\n'));
  }
  const binary = join(dir, 'licensing');
  const compile = Bun.spawnSync(['bun', 'build', '--compile', join(ROOT, 'src/cli/main.ts'), '--outfile', binary], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (compile.exitCode !== 0) throw new Error(`compile: ${compile.stderr}`);
  runtimes = { bun: ['bun', join(dir, 'bun', 'app.mjs')], node: ['node', join(dir, 'node', 'app.mjs')], 'compiled CLI': [binary, 'fingerprint'] };
}, 120_000);

/** Every runtime's fingerprint under one environment (nothing inherited but PATH), optionally as another uid. */
function fingerprints(env: Record<string, string>, uid?: number): Record<string, string> {
  const home = tempDir();
  chmodSync(home, 0o777);
  const base = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home };
  const asUid = uid === undefined ? [] : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups'];
  const out: Record<string, string> = {};
  for (const [name, argv] of Object.entries(runtimes)) {
    const run = Bun.spawnSync([...asUid, ...argv], { env: { ...base, ...env }, cwd: home, stdout: 'pipe', stderr: 'pipe' });
    if (run.exitCode !== 0) throw new Error(`${name}: exit ${run.exitCode}: ${run.stderr}`);
    out[name] = run.stdout.toString().trim();
  }
  return out;
}

const sha256 = (user: string) => createHash('sha256').update(`${hostname()}\n${user}\nlinux\n${arch() === 'x64' ? 'amd64' : arch()}`).digest('hex');
const same = (value: string) => Object.fromEntries(Object.keys(runtimes).map((name) => [name, value]));

describe.skipIf(process.platform !== 'linux')('the fingerprint is the same under Bun, Node and the compiled CLI', () => {
  const passwd = () => readFileSync('/etc/passwd', 'utf8');
  const me = () => userOfUid(passwd(), process.getuid!())!;

  test('with $USER set as a login sets it', () => {
    expect(fingerprints({ USER: me(), LOGNAME: me() })).toEqual(same(sha256(me())));
  });

  test('without $USER (a container, CI, a systemd unit): the passwd entry names the user, as before', () => {
    expect(fingerprints({})).toEqual(same(sha256(me())));
  });

  test('with a $USER that is not the process’s user (su without -): the uid decides', () => {
    expect(fingerprints({ USER: 'someone-else' })).toEqual(same(sha256(me())));
  });

  // setpriv may only change the uid as root.
  test.skipIf(process.getuid?.() !== 0)('a uid without a passwd entry: $USER, or LOGNAME, names the user; with neither the name is empty everywhere', () => {
    expect(userOfUid(passwd(), NOBODY_UID)).toBeNull();

    expect(fingerprints({ USER: 'ada' }, NOBODY_UID)).toEqual(same(sha256('ada')));
    expect(fingerprints({ LOGNAME: 'grace' }, NOBODY_UID)).toEqual(same(sha256('grace')));
    expect(fingerprints({}, NOBODY_UID)).toEqual(same(sha256('')));
  });
});
