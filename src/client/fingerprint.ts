import { nodeModules } from './platform.ts';

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

async function currentMachine(): Promise<MachineParts> {
  const node = await nodeModules();
  if (!node) return browserMachine();
  return {
    hostname: node.os.hostname(),
    username: username(node.os, node.env),
    os: osName(node.platform),
    arch: archName(node.arch),
  };
}

function username(os: typeof import('node:os'), env: Record<string, string | undefined>): string {
  try {
    return os.userInfo().username;
  } catch {
    // userInfo() throws for a uid without a passwd entry (some containers).
    return env.USER ?? env.USERNAME ?? env.LOGNAME ?? '';
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
