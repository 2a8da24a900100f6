import { nodeModules, type NodeModules } from './platform.ts';

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

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
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
