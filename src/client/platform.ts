/**
 * The only door to Node builtins: dynamic imports, tried only where a Node-compatible runtime
 * (Node, Bun, Deno with npm compatibility) is present, so the library still loads in a browser.
 */
type Fs = typeof import('node:fs/promises');
type Os = typeof import('node:os');
type Path = typeof import('node:path');

export interface NodeModules {
  fs: Fs;
  os: Os;
  path: Path;
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  /** POSIX only: the process's user id (absent on Windows). */
  getuid?: () => number;
}

let loaded: Promise<NodeModules | null> | undefined;

export function hasNodeRuntime(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

/** Node's fs, os and path, or null where there are none (a browser). */
export function nodeModules(): Promise<NodeModules | null> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<NodeModules | null> {
  if (!hasNodeRuntime()) return null;
  try {
    const [fs, os, path] = await Promise.all([import('node:fs/promises'), import('node:os'), import('node:path')]);
    const getuid = typeof process.getuid === 'function' ? process.getuid.bind(process) : undefined;
    return { fs, os, path, env: process.env, platform: process.platform, arch: process.arch, getuid };
  } catch {
    return null;
  }
}

/** Browser storage when the page has it (a throwing getter, as in sandboxed iframes, counts as none). */
export function browserStorage(): Storage | null {
  try {
    const storage = (globalThis as { localStorage?: Storage }).localStorage;
    return storage && typeof storage.getItem === 'function' ? storage : null;
  } catch {
    return null;
  }
}

/** Runs a program without a shell (execFile) and answers its standard output: the machine id's readers on macOS and Windows. */
export async function runProgram(command: string, args: readonly string[]): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) =>
    execFile(command, [...args], { timeout: 5_000, windowsHide: true }, (error, stdout) => (error ? reject(error) : resolve(String(stdout)))),
  );
}
