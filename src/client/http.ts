import { ApiError } from './errors.ts';
import { REQUEST_TIMEOUT_MS } from './types.ts';

export type Answer = { kind: 'ok'; status: number; body: unknown; text: string; headers: Headers } | { kind: 'error'; error: ApiError } | { kind: 'unreachable'; cause: unknown };

export interface RequestOptions {
  apiKey?: string;
  bearer?: string | null;
  deviceFingerprint?: string;
  /** Further request headers (lower-case names). */
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

/** JSON over fetch, with a 10-second limit; errors come back as data so each caller decides. */
export class Http {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly fetchFn: typeof fetch,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async send(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    if (options.deviceFingerprint) headers['x-device-fingerprint'] = options.deviceFingerprint;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(`${this.base}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: withTimeout(options.signal),
      });
      text = await response.text();
    } catch (cause) {
      return { kind: 'unreachable', cause };
    }
    const body = parseJson(text);
    if (response.ok) return { kind: 'ok', status: response.status, body, text, headers: response.headers };
    return { kind: 'error', error: apiErrorFrom(response, body) };
  }

  /** For calls whose failure the caller cannot handle: any error becomes an ApiError (status 0 when unreachable). */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const answer = await this.send(method, path, options);
    if (answer.kind === 'error') throw answer.error;
    if (answer.kind === 'unreachable') throw networkError(answer.cause);
    if (typeof answer.body !== 'object' || answer.body === null) throw new ApiError(answer.status, 'invalid_response', 'The licensing service answered something that is not JSON.');
    return answer.body as T;
  }
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  if (!signal) return timeout;
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([signal, timeout]);
  // Browsers older than AbortSignal.any (Safari < 17.4): the same thing by hand.
  const both = new AbortController();
  for (const s of [signal, timeout]) {
    if (s.aborted) both.abort(s.reason);
    else s.addEventListener('abort', () => both.abort(s.reason), { once: true });
  }
  return both.signal;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function apiErrorFrom(response: Response, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const message = typeof error?.message === 'string' ? error.message : `The licensing service answered ${response.status}.`;
  return new ApiError(response.status, code, message, error?.details, retryAfter(response.headers.get('retry-after')));
}

/** Retry-After is either seconds or an HTTP date. */
function retryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function networkError(cause: unknown): ApiError {
  return new ApiError(0, 'network_error', `Could not reach the licensing service: ${describe(cause)}`);
}

export function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
