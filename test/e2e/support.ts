import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export { spawnService, untilHealthy, type Spawned } from '../support/server-process.ts';

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

/** The non-empty lines a process printed. */
export function lines(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '');
}
