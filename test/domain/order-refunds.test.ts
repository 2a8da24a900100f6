import { describe, expect, test } from 'bun:test';
import { paidEndAfterRefund, refundAmountProblem, refundableAmount } from '../../src/domain/order.ts';

const renewal = (periodStart: number, periodEnd: number, status: 'paid' | 'refunded' = 'paid') => ({ periodStart, periodEnd, status });

describe('what a refund may take, and what a refunded renewal leaves', () => {
  test('an amount is a positive whole number up to what is left of the order', () => {
    const order = { amount: 900, amountRefunded: 300 };
    expect(refundableAmount(order)).toBe(600);
    expect([1, 600].map((a) => refundAmountProblem(order, a))).toEqual([null, null]);
    for (const bad of [0, -1, 1.5, 601, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(refundAmountProblem(order, bad)).not.toBeNull();
    expect(refundAmountProblem(order, 601)).toContain('at most 600');
  });

  test('the latest renewal refunded: back to its start; an older one while a later is paid: the later end', () => {
    expect(paidEndAfterRefund(renewal(100, 200), [renewal(200, 300)])).toBe(300);
    expect(paidEndAfterRefund(renewal(200, 300), [renewal(100, 200)])).toBe(200);
    expect(paidEndAfterRefund(renewal(200, 300), [renewal(100, 200, 'refunded')])).toBe(100);
    expect(paidEndAfterRefund(renewal(100, 200), [])).toBe(100);
  });

  test('a renewal recorded without its period leaves the license as it is', () => {
    expect(paidEndAfterRefund({ periodStart: null }, [renewal(100, 200)])).toBeNull();
  });
});
