import { describe, expect, test } from 'bun:test';
import { nextChargeAt } from '../../src/app/subscriptions/customer-subscriptions.ts';
import type { Subscription } from '../../src/domain/subscription.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 10);
// trialEnd spelled out: the field issue 21 adds to Subscription (docs/trials.md).
const base: Subscription & { trialEnd: number | null } = {
  id: 'sub_1', developerId: 'dev_1', customerId: 'cus_1', productId: 'prod_1', licenseId: 'lic_1', processor: 'sandbox', processorSubscriptionId: 'sub_sandbox_1',
  status: 'active', interval: 'month', currentPeriodEnd: NOW + 20 * DAY, cancelAtPeriodEnd: false, createdAt: NOW - 10 * DAY, updatedAt: NOW - 10 * DAY, canceledAt: null, trialEnd: null,
};

/** When the buyer's page says a subscription charges next (docs/customers.md). */
describe('nextChargeAt', () => {
  test('a running subscription charges at its period’s end', () => {
    expect(nextChargeAt(base, NOW)).toBe(base.currentPeriodEnd);
  });

  test('during a free trial, at the trial’s end; once the trial is over, at the period’s end', () => {
    const trial = { ...base, trialEnd: NOW + 4 * DAY };
    expect(nextChargeAt(trial, NOW)).toBe(NOW + 4 * DAY);
    expect(nextChargeAt(trial, NOW + 5 * DAY)).toBe(base.currentPeriodEnd);
  });

  test('never once set to end or ended, trial or not', () => {
    expect(nextChargeAt({ ...base, cancelAtPeriodEnd: true }, NOW)).toBeNull();
    expect(nextChargeAt({ ...base, cancelAtPeriodEnd: true, trialEnd: NOW + DAY }, NOW)).toBeNull();
    expect(nextChargeAt({ ...base, status: 'canceled', canceledAt: NOW }, NOW)).toBeNull();
  });

  test('a subscription whose renewal failed is charged again at its period’s end', () => {
    expect(nextChargeAt({ ...base, status: 'past_due' }, NOW)).toBe(base.currentPeriodEnd);
  });
});
