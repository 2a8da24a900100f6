/** Every failure a command can end in. The HTTP adapter maps each code to a status in one table. */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'email_taken',
  'payload_too_large',
  'rate_limited',
  'not_connected',
  'invalid_signature',
  'card_declined',
  'processor_error',
  'authentication_required',
  'no_phone_on_file',
  'otp_expired',
  'otp_invalid',
  'otp_attempts_exceeded',
  'sms_failed',
  'sms_unavailable',
  'mail_failed',
  'activation_limit',
  'lease_limit',
  'lease_expired',
  'lease_borrowed',
  'subscription_requires_checkout',
  'trial_already_used',
  'trial_not_offered',
  'unavailable',
  'idempotency_key_reused',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `No such ${what}.`);
  }
}

/** Details have the same shape as a schema failure's: where, and which field had what problem. */
export class InvalidRequestError extends DomainError {
  constructor(message: string, field?: string, where: 'body' | 'query' | 'params' | 'headers' = 'body') {
    super('invalid_request', message, field ? { in: where, issues: [{ field, problem: message }] } : undefined);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'A valid API key is required.') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'This key is not allowed to do that.') {
    super('forbidden', message);
  }
}

export class ConflictError extends DomainError {
  constructor(code: 'conflict' | 'email_taken', message: string) {
    super(code, message);
  }
}

/** Too many tries: the HTTP adapter sends `Retry-After` with the seconds. */
export class RateLimitedError extends DomainError {
  constructor(
    code: 'rate_limited' | 'otp_attempts_exceeded',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message, { retryAfterSeconds });
  }
}
