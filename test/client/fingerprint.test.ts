import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { arch, hostname, platform } from 'node:os';
import { machineFingerprint } from '../../src/client/index.ts';
import { archName, osName, userOfUid } from '../../src/client/fingerprint.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('machine fingerprint (CONTRACT.md): lower-case hex SHA-256 of hostname\\nusername\\nos\\narch', () => {
  test('a known input vector', async () => {
    const parts = { hostname: 'build-box.local', username: 'ada', os: 'linux', arch: 'amd64' };

    const fingerprint = await machineFingerprint(parts);

    expect(fingerprint).toBe(sha256('build-box.local\nada\nlinux\namd64'));
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the string is hashed as UTF-8', async () => {
    expect(await machineFingerprint({ hostname: 'héte', username: 'zoë', os: 'darwin', arch: 'arm64' })).toBe(sha256('héte\nzoë\ndarwin\narm64'));
  });

  test('Node names become Go names: win32 → windows, x64 → amd64; others pass through', () => {
    expect(['win32', 'darwin', 'linux', 'freebsd'].map(osName)).toEqual(['windows', 'darwin', 'linux', 'freebsd']);
    expect(['x64', 'arm64', 'ia32', 'riscv64'].map(archName)).toEqual(['amd64', 'arm64', 'ia32', 'riscv64']);
  });

  test.skipIf(process.platform !== 'linux')('without parts it hashes this machine, the user named by the passwd entry of its uid', async () => {
    const user = userOfUid(readFileSync('/etc/passwd', 'utf8'), process.getuid!());
    const expected = sha256(`${hostname()}\n${user}\n${osName(platform())}\n${archName(arch())}`);

    expect(user).toBeTruthy();
    expect(await machineFingerprint()).toBe(expected);
  });

  test('the passwd entry of a uid: the first line with it, comments and short lines skipped', () => {
    const passwd = '# local users\nroot:x:0:0:root:/root:/bin/bash\nbroken\nada:x:1000:1000:Ada:/home/ada:/bin/sh\nalias:x:1000:1000::/home/ada:/bin/sh\n';

    expect([0, 1000, 4242].map((uid) => userOfUid(passwd, uid))).toEqual(['root', 'ada', null]);
  });
});
