/**
 * The console's one way to the service: same-origin fetch to the public API (the console can do
 * nothing the API cannot), the session's CSRF token on every call, and a 401 anywhere sends the
 * seller to the sign-in view.
 */

const root = document.getElementById('console')!;
/** The API's prefix (e.g. `/v1`) and the console's own (e.g. `/v1/console`), from the shell. */
export const API = root.dataset.api ?? '/v1';
export const BASE = root.dataset.base ?? '/v1/console';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let unauthorized: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** What to do when the service answers 401 (the session ended, or there never was one). */
export function onUnauthorized(handler: () => void): void {
  unauthorized = handler;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** `quiet401`: the caller handles a 401 itself (probing for a session) instead of showing sign-in. */
export async function api<T = unknown>(method: string, path: string, body?: unknown, options: { quiet401?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', 'The service did not answer. Check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    if (response.status === 401 && !options.quiet401) unauthorized();
    throw new ApiError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? `The service answered ${response.status}.`, error?.details);
  }
  return parsed as T;
}

/** A list page in the API's cursor convention (docs/lists.md). */
export interface ListPage<T> {
  data: T[];
  hasMore: boolean;
}
