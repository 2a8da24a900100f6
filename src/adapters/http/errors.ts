import { DomainError, RateLimitedError, type ErrorCode } from '../../domain/errors.ts';
import { describeError } from '../system/describe-error.ts';
import type { Logger } from '../system/logger.ts';

export { describeError } from '../system/describe-error.ts';

/** The one table from error code to HTTP status: a new code without a status fails the type check. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  payload_too_large: 413,
  rate_limited: 429,
  not_connected: 409,
  invalid_signature: 400,
  card_declined: 402,
  processor_error: 502,
  authentication_required: 402,
  no_phone_on_file: 409,
  otp_expired: 410,
  otp_invalid: 422,
  otp_attempts_exceeded: 429,
  sms_failed: 502,
};

export function errorResponse(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  const error = details ? { code, message, details } : { code, message };
  return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });
}

interface ValidationIssue {
  path?: string;
  message?: string;
  summary?: string;
}

/** Elysia's validation error, reduced to which field and what was wrong. */
function validationDetails(error: unknown): Record<string, unknown> {
  const e = error as { type?: string; all?: ValidationIssue[] };
  const issues = (Array.isArray(e.all) ? e.all : []).slice(0, 10).map((i) => ({
    field: (i.path ?? '').replace(/^\//, '').replace(/\//g, '.') || '(body)',
    problem: i.summary ?? i.message ?? 'invalid',
  }));
  return { in: e.type ?? 'body', issues };
}

/** Maps whatever a request ended in to the contract's error shape. Unknown errors are logged, never shown. */
export function toErrorResponse(code: string | number, error: unknown, log: Logger): Response {
  // Elysia wraps whatever a parser throws; our own body checks travel as its cause.
  const cause = (error as { cause?: unknown })?.cause;
  if (code === 'PARSE' && cause instanceof DomainError) return toErrorResponse('UNKNOWN', cause, log);
  if (error instanceof DomainError) {
    const response = errorResponse(STATUS_OF[error.code], error.code, error.message, error.details);
    if (error instanceof RateLimitedError) response.headers.set('retry-after', String(error.retryAfterSeconds));
    return response;
  }
  switch (code) {
    case 'VALIDATION':
      return errorResponse(400, 'invalid_request', 'The request does not match its schema.', validationDetails(error));
    case 'PARSE':
      return errorResponse(400, 'invalid_request', 'The body is not valid JSON.');
    case 'NOT_FOUND':
      return errorResponse(404, 'not_found', 'No such route.');
    case 'INVALID_COOKIE_SIGNATURE':
    case 'INVALID_FILE_TYPE':
      return errorResponse(400, 'invalid_request', 'The request is not acceptable.');
  }
  const status = (error as { status?: number })?.status;
  if (status === 413) return errorResponse(413, 'payload_too_large', 'The body is larger than 64 KiB.');
  log.error('unhandled error', describeError(error));
  return errorResponse(500, 'internal_error', 'Something went wrong on our side.');
}
