import { describe, expect, test } from 'bun:test';
import { eventLicenseId, subscriptionChanged, subscriptionCreated, trialEnding, TRIAL_ENDING_NOTICE_MS, type LicenseSubject, type SubscriptionSubject } from '../../src/domain/events.ts';
import type { Subscription } from '../../src/domain/subscription.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const subscription: SubscriptionSubject = {
  id: 'sub_1', developerId: 'dev_1', customerId: 'cus_1', productId: 'prod_1', licenseId: 'lic_1', processor: 'sandbox', processorSubscriptionId: 'sbx_sub_1',
  status: 'active', interval: 'month', currentPeriodEnd: T0 + 31 * DAY, cancelAtPeriodEnd: false, createdAt: T0, updatedAt: T0, canceledAt: null, trialEnd: null, customerEmail: 'buyer@example.com',
};
const after = (changes: Partial<Subscription>): SubscriptionSubject => ({ ...subscription, ...changes });
const typesOf = (before: Partial<Subscription>, changes: Partial<Subscription>) => subscriptionChanged({ ...subscription, ...before }, after({ ...before, ...changes })).map((e) => e.type);

describe('which change of a subscription announces what', () => {
  test('a new subscription announces subscription.created with the subscription as its seller lists it', () => {
    const event = subscriptionCreated(subscription);
    expect(event).toEqual({
      developerId: 'dev_1',
      type: 'subscription.created',
      data: {
        subscription: {
          id: 'sub_1', customerId: 'cus_1', customerEmail: 'buyer@example.com', productId: 'prod_1', licenseId: 'lic_1', processor: 'sandbox', processorSubscriptionId: 'sbx_sub_1',
          status: 'active', interval: 'month', currentPeriodEnd: T0 + 31 * DAY, cancelAtPeriodEnd: false, createdAt: T0, canceledAt: null, trialEnd: null,
        },
      },
    });
    expect(eventLicenseId(event)).toBe('lic_1');
  });

  test('a later period end while active is a renewal; the same end again (a repeated event) is nothing', () => {
    expect(typesOf({}, { currentPeriodEnd: T0 + 59 * DAY })).toEqual(['subscription.renewed']);
    expect(typesOf({}, { updatedAt: T0 + DAY })).toEqual([]);
    expect(typesOf({ cancelAtPeriodEnd: true }, { cancelAtPeriodEnd: true, updatedAt: T0 + DAY })).toEqual([]);
  });

  test('falling behind is past_due, once; paid again (active, whether or not the period moved) is a renewal', () => {
    expect(typesOf({}, { status: 'past_due' })).toEqual(['subscription.past_due']);
    // Stripe moves the period when it bills it: a failed charge reports both at once.
    expect(typesOf({}, { status: 'past_due', currentPeriodEnd: T0 + 59 * DAY })).toEqual(['subscription.past_due']);
    expect(typesOf({ status: 'past_due' }, { status: 'past_due', currentPeriodEnd: T0 + 90 * DAY })).toEqual([]);
    expect(typesOf({ status: 'past_due' }, { status: 'active' })).toEqual(['subscription.renewed']);
    expect(typesOf({ status: 'past_due' }, { status: 'active', currentPeriodEnd: T0 + 59 * DAY })).toEqual(['subscription.renewed']);
  });

  test('canceled is said alone and once, whatever else changed with it', () => {
    expect(typesOf({}, { status: 'canceled', canceledAt: T0 })).toEqual(['subscription.canceled']);
    expect(typesOf({ cancelAtPeriodEnd: true }, { status: 'canceled', cancelAtPeriodEnd: false, currentPeriodEnd: T0 + 59 * DAY })).toEqual(['subscription.canceled']);
    expect(typesOf({ status: 'past_due' }, { status: 'canceled' })).toEqual(['subscription.canceled']);
    expect(typesOf({ status: 'canceled' }, { currentPeriodEnd: T0 + 59 * DAY })).toEqual([]);
  });

  test('a cancellation at period end taken back is a resumption; set, it is nothing; with a paid period, both', () => {
    expect(typesOf({ cancelAtPeriodEnd: true }, { cancelAtPeriodEnd: false })).toEqual(['subscription.resumed']);
    expect(typesOf({}, { cancelAtPeriodEnd: true })).toEqual([]);
    expect(typesOf({ cancelAtPeriodEnd: true }, { cancelAtPeriodEnd: false, currentPeriodEnd: T0 + 59 * DAY })).toEqual(['subscription.renewed', 'subscription.resumed']);
    expect(typesOf({ cancelAtPeriodEnd: true, status: 'past_due' }, { cancelAtPeriodEnd: false })).toEqual(['subscription.resumed']);
  });

  test('every event carries the subscription after the change, of its seller', () => {
    const [event] = subscriptionChanged(subscription, after({ status: 'past_due', updatedAt: T0 + DAY }));
    expect(event).toMatchObject({ developerId: 'dev_1', data: { subscription: { id: 'sub_1', status: 'past_due', licenseId: 'lic_1' } } });
    expect((event!.data as { subscription: object }).subscription).not.toHaveProperty('updatedAt');
    expect((event!.data as { subscription: object }).subscription).not.toHaveProperty('developerId');
  });
});

describe('trial.ending', () => {
  const trial: LicenseSubject = {
    id: 'lic_t', developerId: 'dev_1', productId: 'prod_1', customerId: 'cus_1', customerEmail: 'buyer@example.com', storedStatus: 'active', features: ['pro'],
    issuedAt: T0, expiresAt: T0 + 14 * DAY, machineFingerprint: null, maxMachines: 1, licenseKey: 'h.p.s', trial: true, subscriptionId: null,
  };
  const end = trial.expiresAt!;

  test('an active trial at most three days from its end announces it, with the license as its events carry it', () => {
    expect(TRIAL_ENDING_NOTICE_MS).toBe(3 * DAY);
    for (const now of [end - 3 * DAY, end - DAY, end - 1]) {
      expect(trialEnding(trial, now)).toEqual({ developerId: 'dev_1', type: 'trial.ending', data: { license: expect.objectContaining({ id: 'lic_t', status: 'active', trial: true, expiresAt: end, customerEmail: 'buyer@example.com' }) } });
    }
    expect(eventLicenseId(trialEnding(trial, end - DAY)!)).toBe('lic_t');
  });

  test('earlier than three days, at or past its end, revoked, converted or without an end: nothing', () => {
    expect(trialEnding(trial, end - 3 * DAY - 1)).toBeNull();
    expect(trialEnding(trial, end)).toBeNull();
    expect(trialEnding({ ...trial, storedStatus: 'revoked' }, end - DAY)).toBeNull();
    expect(trialEnding({ ...trial, trial: false }, end - DAY)).toBeNull();
    expect(trialEnding({ ...trial, expiresAt: null }, end - DAY)).toBeNull();
  });
});
