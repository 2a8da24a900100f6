import { describe, expect, test } from 'bun:test';
import { convertibleTrial, subscriptionTrial, trialExpiry } from '../../src/domain/trial.ts';
import { aLicense, DAY, T0 } from '../contracts/builders.ts';

const parties = { developerId: 'dev_1', productId: 'prod_1', customerId: 'cus_1' };

describe('trials in the domain', () => {
  test('a trial of D days ends D whole days after it started', () => {
    expect(trialExpiry(14, T0)).toBe(T0 + 14 * DAY);
  });

  test('a purchase converts the buyer’s trial of that product, expired or not; never a revoked one, a paid one or another product’s', () => {
    const expiredTrial = aLicense(parties, { trial: true, expiresAt: T0 - DAY });
    const revokedTrial = aLicense(parties, { trial: true, storedStatus: 'revoked' });
    const paid = aLicense(parties);
    const otherProduct = aLicense({ ...parties, productId: 'prod_2' }, { trial: true });

    expect(convertibleTrial([paid, expiredTrial, otherProduct], 'prod_1')).toBe(expiredTrial);
    expect(convertibleTrial([paid, revokedTrial, otherProduct], 'prod_1')).toBeNull();
  });

  test('a subscription’s trial license is not converted by another purchase: its own first charge does that', () => {
    const subscriptionTrialLicense = aLicense(parties, { trial: true, subscriptionId: 'sub_1' });

    expect(convertibleTrial([subscriptionTrialLicense], 'prod_1')).toBeNull();
  });

  describe('the trial a subscription starts with', () => {
    const monthly = { id: 'prod_1', interval: 'month' as const, trialDays: 14 };

    test('a new buyer gets the product’s trial days', () => {
      expect(subscriptionTrial(monthly, [], T0)).toEqual({ days: 14, end: T0 + 14 * DAY });
    });

    test('a buyer in their free trial keeps what is left of it, a part day counting as a day', () => {
      const running = aLicense(parties, { trial: true, expiresAt: T0 + 10 * DAY });

      expect(subscriptionTrial(monthly, [running], T0)).toEqual({ days: 10, end: T0 + 10 * DAY });
      expect(subscriptionTrial(monthly, [running], T0 + 4 * DAY + 1)).toEqual({ days: 6, end: T0 + 10 * DAY });
    });

    test('no trial: the buyer’s trial ended, or they held the product before, or it offers none, or it is a one-off', () => {
      const ended = aLicense(parties, { trial: true, expiresAt: T0 });
      const bought = aLicense(parties);
      const revoked = aLicense(parties, { trial: true, storedStatus: 'revoked' });

      expect(subscriptionTrial(monthly, [ended], T0)).toBeNull();
      expect(subscriptionTrial(monthly, [bought], T0)).toBeNull();
      expect(subscriptionTrial(monthly, [revoked], T0)).toBeNull();
      expect(subscriptionTrial({ ...monthly, trialDays: null }, [], T0)).toBeNull();
      expect(subscriptionTrial({ ...monthly, interval: null }, [], T0)).toBeNull();
    });

    test('another product’s licenses change nothing', () => {
      const other = aLicense({ ...parties, productId: 'prod_2' }, { trial: true, expiresAt: T0 + 2 * DAY });

      expect(subscriptionTrial(monthly, [other], T0)).toEqual({ days: 14, end: T0 + 14 * DAY });
    });
  });
});
