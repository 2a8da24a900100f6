import { InvalidRequestError } from '../../domain/errors.ts';

export const WEBHOOK_PAGE = { default: 20, max: 100 };

export function pageLimit(limit: number | undefined): number {
  const value = limit ?? WEBHOOK_PAGE.default;
  if (!Number.isSafeInteger(value) || value < 1 || value > WEBHOOK_PAGE.max) {
    throw new InvalidRequestError(`limit must be a whole number from 1 to ${WEBHOOK_PAGE.max}.`, 'limit', 'query');
  }
  return value;
}
