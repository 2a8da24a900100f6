/** An error answer from the service (CONTRACT.md "Errors"), or status 0 when it could not be reached. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export type CheckoutErrorKind = 'expired' | 'timeout' | 'aborted' | 'http';

export class CheckoutError extends Error {
  override readonly name = 'CheckoutError';

  constructor(
    readonly kind: CheckoutErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
