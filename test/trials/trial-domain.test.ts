import { describe, expect, test } from 'bun:test';
import { convertibleTrial, trialExpiry } from '../../src/domain/trial.ts';
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
});
