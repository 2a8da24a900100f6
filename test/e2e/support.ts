import { spawn } from 'bun';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/server-process.ts';

const ROOT = join(import.meta.dir, '..', '..');

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** Real fetch() against a running process; `key` goes in X-API-Key, `bearer` in Authorization. */
export function client(url: string) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; key?: string; bearer?: string } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    if (options.key) headers['x-api-key'] = options.key;
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}/v1${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, text, body: parsed as T };
  };
}

export type Call = ReturnType<typeof client>;

/** A fresh folder under the OS temp dir; `remove()` deletes it and everything in it. */
export function tempDir(prefix = 'licensing-e2e-') {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The JSON claims of a compact JWS (no verification: the test only reads them). */
export function jwsPayload(jws: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

export interface Spawned {
  url: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  kill: (signal?: NodeJS.Signals) => void;
}

/**
 * The real service in a chosen working directory, without waiting for health (startServer always
 * runs in the project root and waits for health; start-up failures and cwd checks need this one).
 * Only the variables given here are set, on top of PATH and HOME: the parent's env cannot leak in.
 */
export async function spawnService(env: Record<string, string>, cwd = ROOT): Promise<Spawned> {
  const port = await freePort();
  const proc = spawn(['bun', 'run', join(ROOT, 'src/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) out += decoder.decode(chunk);
  };
  const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
  const exited = proc.exited.then(async (code) => (await drained, code));
  return { url: `http://127.0.0.1:${port}`, output: () => out, exited, kill: (signal = 'SIGTERM') => proc.kill(signal) };
}

/** Waits until /v1/health answers 200; fails if the process exits first. */
export async function untilHealthy(service: Spawned, timeoutMs = 30_000): Promise<void> {
  let exitCode: number | null = null;
  void service.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== null) throw new Error(`server exited with ${exitCode}: ${service.output()}`);
    try {
      if ((await fetch(`${service.url}/v1/health`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`server not healthy in time: ${service.output()}`);
}

/** The non-empty lines a process printed. */
export function lines(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '');
}
