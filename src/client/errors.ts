/** An error answer from the service (CONTRACT.md "Errors"), or status 0 when it could not be reached. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';

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

/** One of the license's machines as activate()'s 409 names it. */
export interface ActivationSlot {
  id: string;
  name: string | null;
}

/**
 * 409 activation_limit from activate(): every slot is taken. `activations` are the machines holding
 * them (ids and names), so the application can offer to free one (the buyer's self-service, or the seller).
 */
export class ActivationLimitError extends ApiError {
  override readonly name: string = 'ActivationLimitError';

  constructor(
    message: string,
    readonly maxMachines: number | null,
    readonly activations: ActivationSlot[],
  ) {
    super(409, 'activation_limit', message, { maxMachines, activations });
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
