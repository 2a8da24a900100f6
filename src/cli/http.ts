import { normalizeBaseUrl } from '../client/base-url.ts';
import { HttpApiError, isNetworkError, unreachable, UsageError } from './errors.ts';

export const DEFAULT_API_URL = 'http://localhost:3000/v1';

/** `http://host:3000`, `http://host:3000/`, `http://host:3000/v1/` → `http://host:3000/v1`. */
export function normalizeApiUrl(raw: string): string {
  // The client library's rule, with the CLI's own words; a path alone is no API address here.
  if (!URL.canParse(raw.trim())) throw new UsageError(`--api-url must be a URL such as ${DEFAULT_API_URL}, not "${raw}"`);
  try {
    return normalizeBaseUrl(raw);
  } catch {
    throw new UsageError(`--api-url must be an http(s) URL, not "${raw}"`);
  }
}

export interface RequestOptions {
  body?: unknown;
  apiKey?: string;
  bearer?: string;
  /** Sent with the identity token: the device it was issued to (the service refuses the token without it). */
  deviceFingerprint?: string;
  query?: Record<string, string | number | undefined>;
}

/** JSON over fetch against the API; error answers become HttpApiError, unreachable servers exit 5. */
export class Api {
  constructor(readonly baseUrl: string) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    if (options.deviceFingerprint) headers['x-device-fingerprint'] = options.deviceFingerprint;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    } catch (error) {
      if (isNetworkError(error)) throw unreachable(this.baseUrl);
      throw error;
    }
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) throw errorFrom(response, parsed, text);
    if (parsed === undefined) throw new HttpApiError(`the API answered ${method} ${path} with something other than JSON`, 'bad_response', response.status);
    return parsed as T;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorFrom(response: Response, parsed: unknown, text: string): HttpApiError {
  const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string') {
    const message = typeof error.message === 'string' ? error.message : error.code;
    return new HttpApiError(withIssues(message, error.details), error.code, response.status);
  }
  const snippet = text.trim().slice(0, 120);
  return new HttpApiError(`HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`, `http_${response.status}`, response.status);
}

/** "The request does not match its schema." + which fields and why, when the API says. */
function withIssues(message: string, details: unknown): string {
  const issues = (details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return message;
  const described = issues
    .map((i: { field?: unknown; problem?: unknown }) => (typeof i?.field === 'string' ? `${i.field}: ${String(i.problem ?? 'invalid')}` : null))
    .filter((d): d is string => d !== null && !message.includes(d.slice(d.indexOf(': ') + 2)));
  return described.length ? `${message} ${described.join('; ')}` : message;
}
