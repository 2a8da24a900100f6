import { DomainError, RateLimitedError, type ErrorCode } from '../../domain/errors.ts';
import { describeError } from '../system/describe-error.ts';
import type { Logger } from '../system/logger.ts';
import { isStoreUnavailable, RETRY_AFTER_SECONDS, type StoreHealth } from '../system/store-health.ts';

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
  sms_unavailable: 409,
  mail_failed: 502,
  activation_limit: 409,
  lease_limit: 409,
  lease_expired: 410,
  lease_borrowed: 409,
  subscription_requires_checkout: 409,
  trial_already_used: 409,
  trial_not_offered: 409,
  unavailable: 503,
  idempotency_key_reused: 422,
};

export function errorResponse(status: number, code: string, message: string, details?: Record<string, unknown>): Response {
  const error = details ? { code, message, details } : { code, message };
  return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });
}

interface ValidationIssue {
  path?: string;
  message?: string;
  summary?: string;
  type?: number;
  schema?: { 'x-error'?: unknown };
}

/** TypeBox's ValueErrorType.ObjectRequiredProperty: the field is absent, whatever its own message. */
const MISSING_PROPERTY = 45;
const MAX_ISSUES = 10;

/**
 * Elysia's validation error, reduced to which field and what was wrong: one problem per field (the
 * first; TypeBox also reports an absent field as the wrong type), in the field's own words when its
 * schema has an `x-error` message (e.g. that a price is in minor units): an OpenAPI extension, so the
 * published document stays valid, where Elysia's own `error` keyword is not.
 */
export function validationDetails(error: unknown): { in: string; issues: { field: string; problem: string }[] } {
  const e = error as { type?: string; all?: ValidationIssue[] };
  const issues: { field: string; problem: string }[] = [];
  for (const issue of Array.isArray(e.all) ? e.all : []) {
    const field = (issue.path ?? '').replace(/^\//, '').replace(/\//g, '.') || '(body)';
    if (issues.some((known) => known.field === field)) continue;
    issues.push({ field, problem: problemOf(issue) });
    if (issues.length === MAX_ISSUES) break;
  }
  return { in: e.type ?? 'body', issues };
}

function problemOf(issue: ValidationIssue): string {
  const own = issue.schema?.['x-error'];
  if (issue.type !== MISSING_PROPERTY && typeof own === 'string') return own;
  return issue.summary ?? issue.message ?? 'invalid';
}

export interface Failure {
  status: number;
  code: string;
  message: string;
}

/**
 * Status, code and sentence of a failed request, as toErrorResponse answers it, for pages that tell a
 * person in HTML; null for what only toErrorResponse handles (unexpected errors are logged there).
 */
export function failureOf(code: string | number, error: unknown): Failure | null {
  const cause = (error as { cause?: unknown })?.cause;
  const known = error instanceof DomainError ? error : code === 'PARSE' && cause instanceof DomainError ? cause : null;
  if (known) return { status: STATUS_OF[known.code], code: known.code, message: known.message };
  if (code === 'VALIDATION') {
    const problems = validationDetails(error).issues.map((i) => `${i.field}: ${i.problem}`);
    return { status: 400, code: 'invalid_request', message: problems.join(' ') || 'The request does not match its schema.' };
  }
  return null;
}

/** The answer while the store is unavailable (past its deadlines, unreachable, full): try again shortly. */
export function unavailableResponse(message = 'The service cannot reach its store right now; try again shortly.'): Response {
  const response = errorResponse(503, 'unavailable', message);
  response.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
  return response;
}

/**
 * Maps whatever a request ended in to the contract's error shape. Unknown errors are logged, never
 * shown; a store that is unavailable answers 503, logged once per episode by `health`.
 */
export function toErrorResponse(code: string | number, error: unknown, log: Logger, health?: StoreHealth): Response {
  // Elysia wraps whatever a parser throws; our own body checks travel as its cause.
  const cause = (error as { cause?: unknown })?.cause;
  if (code === 'PARSE' && cause instanceof DomainError) return toErrorResponse('UNKNOWN', cause, log, health);
  if (isStoreUnavailable(error)) {
    if (health) health.failed(error);
    else log.warn('store unavailable', describeError(error));
    return unavailableResponse();
  }
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
