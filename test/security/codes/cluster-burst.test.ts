import { beforeAll, describe, expect, test } from 'bun:test';
import { OTP_LIMITS } from '../../../src/domain/otp-challenge.ts';
import { aBuyer, connectedSeller, instancesOf, mailedCode, payInSandbox, useService } from '../../cluster/cluster.ts';

/**
 * The issue's own attack, against two real server processes on one PostgreSQL database: 200
 * concurrent /auth/login/verify calls spread over both instances, the right code at a random place.
 * Every attempt is counted in the database before any code is compared. (The regression test that
 * counts the codes compared is attempt-races.test.ts, in process; this one checks the same limits
 * hold between real instances.)
 */

const BURST = 200;
const ROUNDS = 3;
const wrong = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

describe('two instances on one PostgreSQL database: a burst of verifies', () => {
  const service = useService(2);
  let seller: Awaited<ReturnType<typeof connectedSeller>>;

  beforeAll(async () => {
    seller = await connectedSeller(service.next());
  });

  test(`${BURST} concurrent verifies over both instances, ${ROUNDS} times: at most 5 codes compared, at most one success`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = aBuyer();
      await payInSandbox(service.next(), seller, seller.pro, buyer);
      // The buyer has no confirmed phone: the code goes by e-mail.
      const init = await service.on(0)('POST', '/auth/login/init', { body: { email: buyer.email } });
      const code = await mailedCode(service, buyer.email);
      const right = Math.floor(Math.random() * BURST);
      const instances = instancesOf(service);

      const replies = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          service.on(instances[i % instances.length]!)('POST', '/auth/login/verify', {
            body: { email: buyer.email, otpId: init.body.otpId, otp: i === right ? code : wrong(code), deviceFingerprint: 'burst' },
          }),
        ),
      );

      const successes = replies.filter((r) => r.status === 200).length;
      expect(successes).toBeLessThanOrEqual(1);
      for (const r of replies) expect([200, 422, 429]).toContain(r.status);
      // Without a success nothing uses the challenge up, so every 422 is a compared wrong code: at most 5.
      // (After a success, late requests hear 422 for the used challenge without any comparison.)
      if (successes === 0) expect(replies.filter((r) => r.status === 422).length).toBeLessThanOrEqual(OTP_LIMITS.maxAttempts);
    }
  });
});
