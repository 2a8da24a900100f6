import { sha256Hex } from '../domain/sha256.ts';
import { nodeModules, runProgram, type NodeModules } from './platform.ts';

export { sha256Hex };

export interface MachineParts {
  hostname: string;
  username: string;
  os: string;
  arch: string;
}

/** Go's names, as CONTRACT.md asks; anything else passes through unchanged. */
export function osName(platform: string): string {
  return platform === 'win32' ? 'windows' : platform;
}

export function archName(arch: string): string {
  return arch === 'x64' ? 'amd64' : arch;
}

/** CONTRACT.md: lower-case hex SHA-256 of `hostname\nusername\nos\narch` (UTF-8). */
export async function machineFingerprint(parts?: MachineParts): Promise<string> {
  const p = parts ?? (await currentMachine());
  return sha256Hex(`${p.hostname}\n${p.username}\n${p.os}\n${p.arch}`);
}


/** The service's rule for an activation's name (docs/activations.md): 1 to 100 characters, no control characters. */
const NAME = /^[^\u0000-\u001f\u007f]{1,100}$/;

/**
 * The name a machine bound by check() shows under on the buyer's page and to the seller: its host
 * name (cut to 100 characters); undefined where there is none or the service would refuse it (a
 * browser: the page's host names no machine).
 */
export async function machineName(): Promise<string | undefined> {
  const node = await nodeModules();
  const host = node?.os.hostname().trim().slice(0, 100) ?? '';
  return NAME.test(host) ? host : undefined;
}

async function currentMachine(): Promise<MachineParts> {
  const node = await nodeModules();
  if (!node) return browserMachine();
  return {
    hostname: node.os.hostname(),
    username: await username(node),
    os: osName(node.platform),
    arch: archName(node.arch),
  };
}

/**
 * The user name, taken the same way in every runtime: Bun's os.userInfo() says "unknown" when
 * $USER is unset where Node reads the passwd entry, and a fingerprint that differs between the
 * CLI and an application on one machine makes its own license `machine_mismatch`. So: the
 * passwd entry of the process's uid, then the environment (USER, LOGNAME, USERNAME), then, where
 * there is no uid (Windows), os.userInfo(). On POSIX userInfo() is skipped: it would only repeat
 * the passwd lookup in Node and say "unknown" in Bun.
 */
async function username(node: NodeModules): Promise<string> {
  return (await passwdName(node)) ?? envName(node.env) ?? (node.getuid ? null : userInfoName(node)) ?? '';
}

async function passwdName(node: NodeModules): Promise<string | null> {
  if (!node.getuid) return null;
  try {
    return userOfUid(await node.fs.readFile('/etc/passwd', 'utf8'), node.getuid());
  } catch {
    return null;
  }
}

/** `name:password:uid:gid:gecos:home:shell`, one per line; the first entry with the uid wins, as getpwuid's does. */
export function userOfUid(passwd: string, uid: number): string | null {
  for (const line of passwd.split('\n')) {
    if (line.startsWith('#')) continue;
    const [name, , id] = line.split(':');
    if (name && id !== undefined && id.trim() !== '' && Number(id) === uid) return name;
  }
  return null;
}

function envName(env: Record<string, string | undefined>): string | null {
  return env.USER || env.LOGNAME || env.USERNAME || null;
}

function userInfoName(node: NodeModules): string | null {
  try {
    return node.os.userInfo().username || null;
  } catch {
    // userInfo() throws for a uid without a passwd entry (some containers).
    return null;
  }
}

/**
 * A browser exposes no host or user name: this is the same for every browser of one platform,
 * so applications running in a browser should pass their own `fingerprint`.
 */
function browserMachine(): MachineParts {
  const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
  const agent = nav?.userAgent ?? '';
  const os = /Windows/i.test(agent) ? 'windows' : /Mac OS X|Macintosh/i.test(agent) ? 'darwin' : /Linux|Android|CrOS/i.test(agent) ? 'linux' : 'unknown';
  const arch = /arm64|aarch64/i.test(agent) ? 'arm64' : /x86_64|x64|Win64|amd64/i.test(agent) ? 'amd64' : 'unknown';
  const host = (globalThis as { location?: { hostname?: string } }).location?.hostname ?? '';
  return { hostname: host, username: '', os, arch };
}

/** docs/machine-files.md: a container (or anything whose machine id is not its own) sets this. */
export const FINGERPRINT_ENV = 'LICENSING_FINGERPRINT';

/** How the operating system's machine id is read: the real readers, or a test's. */
export interface MachineIdSource {
  platform: string;
  env: Record<string, string | undefined>;
  readFile(path: string): Promise<string>;
  /** Runs a program (no shell) and answers its standard output. */
  run(command: string, args: readonly string[]): Promise<string>;
}

const LINUX_IDS = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

/**
 * The operating system's own id of this machine, or null where there is none to read: Linux's
 * /etc/machine-id (or the D-Bus copy), macOS's IOPlatformUUID, Windows's MachineGuid. Unlike the
 * host name, it stays when the machine is renamed.
 */
export async function osMachineId(source: MachineIdSource): Promise<string | null> {
  const attempt = async (read: () => Promise<string>, pick: (text: string) => string | undefined) => {
    try {
      return clean(pick(await read()));
    } catch {
      return null;
    }
  };
  if (source.platform === 'darwin') {
    return attempt(() => source.run('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice']), (out) => /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(out)?.[1]);
  }
  if (source.platform === 'win32' || source.platform === 'windows') {
    return attempt(() => source.run('reg', ['query', 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid']), (out) => /MachineGuid\s+REG_SZ\s+(\S+)/i.exec(out)?.[1]);
  }
  for (const path of LINUX_IDS) {
    const id = await attempt(() => source.readFile(path), (text) => text);
    if (id) return id;
  }
  return null;
}

function clean(value: string | undefined): string | null {
  const id = value?.trim().toLowerCase();
  return id && /^[0-9a-f-]{16,}$/.test(id) ? id : null;
}

/**
 * This machine's fingerprint for one seller's product (docs/machine-files.md): LICENSING_FINGERPRINT
 * when set; else lower-case hex SHA-256 of `licensing-machine-v1\n<productId>\n<OS machine id>`, so
 * two sellers' products see unrelated values for one machine; else, where the OS has no machine id
 * to read (a browser, a bare container), the CONTRACT.md fingerprint (machineFingerprint()).
 * With `ignoreEnv`, LICENSING_FINGERPRINT counts for nothing: an application that refuses it.
 */
export async function productFingerprint(productId: string, source?: MachineIdSource, options: { ignoreEnv?: boolean } = {}): Promise<string> {
  const from = source ?? (await nodeSource());
  const override = options.ignoreEnv ? undefined : from?.env[FINGERPRINT_ENV]?.trim();
  if (override) return override;
  const id = from && (await osMachineId(from));
  return id ? sha256Hex(`licensing-machine-v1\n${productId}\n${id}`) : machineFingerprint();
}

/** The fingerprint's source in Node, Bun and Deno: fs for files, execFile (no shell) for ioreg and reg. */
async function nodeSource(): Promise<MachineIdSource | null> {
  const node = await nodeModules();
  if (!node) return null;
  return {
    platform: node.platform,
    env: node.env,
    readFile: (path) => node.fs.readFile(path, 'utf8'),
    run: runProgram,
  };
}
