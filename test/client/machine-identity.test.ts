import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { FINGERPRINT_ENV, machineFingerprint, osMachineId, productFingerprint, type MachineIdSource } from '../../src/client/index.ts';

/** docs/machine-files.md, "Machine identity": the OS machine id, hashed with the product, read through injected readers. */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const LINUX_ID = '4c4c4544003957108052b4c04f384833';

/** A machine whose OS readers answer from tables: files by path, programs by name. */
function machine(options: { platform?: string; files?: Record<string, string>; programs?: Record<string, string>; env?: Record<string, string> } = {}): MachineIdSource & { ran: string[] } {
  const ran: string[] = [];
  return {
    platform: options.platform ?? 'linux',
    env: options.env ?? {},
    ran,
    async readFile(path) {
      const text = options.files?.[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
    async run(command, args) {
      ran.push([command, ...args].join(' '));
      const out = options.programs?.[command];
      if (out === undefined) throw new Error(`${command}: not found`);
      return out;
    },
  };
}

const IOREG = `+-o J314sAP  <class IOPlatformExpertDevice, id 0x100000202, registered, matched, active, busy 0 (46 ms), retain 40>
    {
      "IOPlatformSerialNumber" = "C02XXXXXXX"
      "IOPlatformUUID" = "5E3B4A1C-2D6F-4E8A-9B0C-1D2E3F4A5B6C"
      "model" = <"MacBookPro18,1">
    }`;
const REG = `
HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography
    MachineGuid    REG_SZ    0f7c2a3e-8b1d-4e6f-9a2c-3d4e5f6a7b8c
`;

describe('osMachineId', () => {
  test('Linux: /etc/machine-id, else the D-Bus copy; neither: null', async () => {
    expect(await osMachineId(machine({ files: { '/etc/machine-id': `${LINUX_ID}\n` } }))).toBe(LINUX_ID);
    expect(await osMachineId(machine({ files: { '/var/lib/dbus/machine-id': `${LINUX_ID}\n` } }))).toBe(LINUX_ID);
    expect(await osMachineId(machine({ files: { '/etc/machine-id': 'uninitialized\n' } }))).toBeNull();
    expect(await osMachineId(machine())).toBeNull();
  });

  test('macOS: IOPlatformUUID from ioreg; Windows: MachineGuid from the registry (lower-cased)', async () => {
    const mac = machine({ platform: 'darwin', programs: { ioreg: IOREG } });
    expect(await osMachineId(mac)).toBe('5e3b4a1c-2d6f-4e8a-9b0c-1d2e3f4a5b6c');
    expect(mac.ran).toEqual(['ioreg -rd1 -c IOPlatformExpertDevice']);
    const windows = machine({ platform: 'win32', programs: { reg: REG } });
    expect(await osMachineId(windows)).toBe('0f7c2a3e-8b1d-4e6f-9a2c-3d4e5f6a7b8c');
    expect(windows.ran).toEqual(['reg query HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography /v MachineGuid']);
    expect(await osMachineId(machine({ platform: 'darwin' }))).toBeNull();
  });
});

describe('productFingerprint', () => {
  const linux = (env: Record<string, string> = {}) => machine({ files: { '/etc/machine-id': LINUX_ID }, env });

  test('SHA-256 of the product and the OS machine id', async () => {
    expect(await productFingerprint('prod_a', linux())).toBe(sha256(`licensing-machine-v1\nprod_a\n${LINUX_ID}`));
  });

  test('stable across host-name changes, where the legacy fingerprint changes', async () => {
    const before = await productFingerprint('prod_a', linux({ HOSTNAME: 'build-01' }));
    const after = await productFingerprint('prod_a', linux({ HOSTNAME: 'renamed-box' }));
    expect(after).toBe(before);
    const legacy = (hostname: string) => machineFingerprint({ hostname, username: 'ada', os: 'linux', arch: 'amd64' });
    expect(await legacy('build-01')).not.toBe(await legacy('renamed-box'));
  });

  test('different per product: one machine cannot be correlated across sellers', async () => {
    const a = await productFingerprint('prod_a', linux());
    const b = await productFingerprint('prod_b', linux());
    expect(a).not.toBe(b);
    expect([a, b].every((fp) => /^[0-9a-f]{64}$/.test(fp))).toBe(true);
  });

  test(`${FINGERPRINT_ENV} overrides it as it is (containers)`, async () => {
    expect(await productFingerprint('prod_a', linux({ [FINGERPRINT_ENV]: '  ci-runner-7  ' }))).toBe('ci-runner-7');
    expect(await productFingerprint('prod_a', linux({ [FINGERPRINT_ENV]: '   ' }))).toBe(await productFingerprint('prod_a', linux()));
  });

  test(`${FINGERPRINT_ENV} is ignored when the application refuses it (ignoreEnv)`, async () => {
    expect(await productFingerprint('prod_a', linux({ [FINGERPRINT_ENV]: 'ci-runner-7' }), { ignoreEnv: true })).toBe(await productFingerprint('prod_a', linux()));
  });

  test('no machine id to read: the legacy fingerprint (CONTRACT.md), so nothing breaks', async () => {
    expect(await productFingerprint('prod_a', machine())).toBe(await machineFingerprint());
  });

  test.skipIf(process.platform !== 'linux')('on this machine: the real /etc/machine-id', async () => {
    const id = (await Bun.file('/etc/machine-id').text()).trim();
    expect(await productFingerprint('prod_a')).toBe(process.env[FINGERPRINT_ENV]?.trim() || sha256(`licensing-machine-v1\nprod_a\n${id}`));
  });
});
