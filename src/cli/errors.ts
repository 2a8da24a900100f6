/** Exit codes scripts can rely on (also listed in `licensing --help`). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  invalidLicense: 3,
  notConfigured: 4,
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure with a message for people, a stable code for scripts and the exit status to end with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 'usage', EXIT.usage);
    this.name = 'UsageError';
  }
}

export class NotConfiguredError extends CliError {
  constructor(message: string, code = 'not_configured') {
    super(message, code, EXIT.notConfigured);
  }
}

/** An error answer of the API: `{"error": {"code", "message"}}` with its HTTP status. */
export class HttpApiError extends CliError {
  constructor(
    message: string,
    code: string,
    readonly status: number,
  ) {
    // An unknown, revoked or expired credential means: log in (or sign up) again.
    super(message, code, status === 401 ? EXIT.notConfigured : EXIT.failed);
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ConnectionRefused', 'FailedToOpenSocket', 'ConnectionClosed']);

/** fetch() failing to reach the server at all (not an HTTP error answer). */
export function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof Error && /Unable to connect|fetch failed|ECONNREFUSED/i.test(e.message)) return true;
  }
  return false;
}

export function unreachable(apiUrl: string): CliError {
  return new CliError(`cannot reach the licensing API at ${apiUrl}`, 'network_unreachable', EXIT.unreachable);
}

/**
 * Any thrown value as a CliError: ours as they are, the client library's ApiError and CheckoutError
 * (recognized by shape, so this file does not depend on the library), network failures, and anything
 * else as an internal error with its message only, never a stack.
 */
export function toCliError(error: unknown, apiUrl: string): CliError {
  if (error instanceof CliError) return error;
  if (isNetworkError(error)) return unreachable(apiUrl);
  const e = error as { name?: unknown; message?: unknown; status?: unknown; code?: unknown; kind?: unknown };
  const message = typeof e?.message === 'string' && e.message ? e.message : String(error);
  if (typeof e?.status === 'number' && typeof e.code === 'string') {
    // The client library reports an unreachable service as status 0, code network_error.
    return e.status === 0 ? unreachable(apiUrl) : new HttpApiError(message, e.code, e.status);
  }
  if (e?.name === 'CheckoutError' && typeof e.kind === 'string') return new CliError(message, `checkout_${e.kind}`);
  return new CliError(message, 'internal_error');
}
