import { afterEach, describe, expect, test } from 'bun:test';
import { SMS_LIMITS } from '../../../src/domain/otp-challenge.ts';
import { aBuyer, CODE_STORES, expectError, openCodesApp, retryAfterOf, type CodesApp } from './codes-app.ts';

/**
 * Issue 9, medium: a fresh /purchase/init per /purchase/otp sent 60 texts to one phone in 1.1 s.
 * Texts are now limited per phone number and per customer across every kind of code, in the shared
 * counters (5 per 15 minutes, 20 per 24 hours), on top of 3 per e-mail or purchase per 15 minutes.
 */

const QUARTER = 15 * 60_000;
const DAY = 24 * 60 * 60_000;

test('the limits are 5 texts per 15 minutes and 20 per 24 hours', () => {
  expect(SMS_LIMITS).toEqual([
    { sends: 5, windowMs: QUARTER },
    { sends: 20, windowMs: DAY },
  ]);
});

for (const factory of CODE_STORES) {
  describe(`texts per customer and per phone, on ${factory.name}`, () => {
    let app: CodesApp;
    afterEach(async () => app?.dispose());

    /** Purchase init + otp, `pairs` times: the statuses of the otp calls. */
    async function pump(token: string, pairs: number) {
      const replies = [];
      for (let i = 0; i < pairs; i++) {
        const init = await app.purchaseInit(token);
        expect(init.status).toBe(200);
        replies.push(await app.purchaseOtp(token, init.body.purchaseId));
      }
      return replies;
    }

    test('60 purchase init + otp pairs in a row: 5 texts reach the phone (the sign-in’s included), the rest are 429 rate_limited', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const token = await app.login(buyer);

      const replies = await pump(token, 60);

      expect(await app.outbox(buyer.phone)).toHaveLength(5);
      expect(replies.slice(0, 4).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      for (const reply of replies.slice(4)) {
        expectError(reply, 429, 'rate_limited');
        expect(retryAfterOf(reply)).toBeGreaterThan(0);
        expect(retryAfterOf(reply)).toBeLessThanOrEqual(900);
      }
    });

    test('the 15-minute limit frees up with the next window; 20 texts a day at most, then the next day again', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const token = await app.login(buyer);

      for (let quarter = 0; quarter < 6; quarter++) {
        await pump(token, 6);
        app.clock.advance(QUARTER);
      }
      const sameDay = await pump(token, 1);
      app.clock.advance(DAY);
      const nextDay = await pump(token, 1);

      expect(await app.outbox(buyer.phone)).toHaveLength(21);
      expectError(sameDay[0]!, 429, 'rate_limited');
      expect(nextDay[0]!.status).toBe(200);
    });

    test('two customers sharing one phone share its limit: 5 texts to that phone per 15 minutes in all', async () => {
      app = await openCodesApp(factory);
      const phone = aBuyer().phone;
      const ada = await app.payInBrowser(aBuyer(phone));
      const grace = await app.payInBrowser(aBuyer(phone));
      const tokens = [await app.login(ada), await app.login(grace)];

      for (let i = 0; i < 10; i++) await pump(tokens[i % 2]!, 1);

      expect(await app.outbox(phone)).toHaveLength(5);
    });

    test('sign-in codes count too: after 4 purchase codes, a sign-in within the quarter goes by e-mail instead (the phone’s texts are used up)', async () => {
      app = await openCodesApp(factory);
      const buyer = await app.payInBrowser(aBuyer());
      const token = await app.login(buyer);
      await pump(token, 4);

      const init = await app.loginInit(buyer.email);

      expect(init.status).toBe(200);
      expect(await app.outbox(buyer.phone)).toHaveLength(5);
      const mail = await app.api.call('GET', `/sandbox/mail?to=${encodeURIComponent(buyer.email)}`);
      const code = /\b(\d{6})\b/.exec(mail.body.data[0].text)![1]!;
      expect((await app.loginVerify(buyer, init.body.otpId, code)).status).toBe(200);
    });
  });
}

describe('an unknown e-mail is limited exactly like a known one (SQLite)', () => {
  let app: CodesApp;
  afterEach(async () => app?.dispose());

  test('4 sign-in inits per quarter for 8 quarters: the same statuses and Retry-After for both', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const known = await app.payInBrowser(aBuyer());
    const unknown = 'nobody-at-all@example.com';
    const seen: Record<'known' | 'unknown', string[]> = { known: [], unknown: [] };

    for (let quarter = 0; quarter < 8; quarter++) {
      for (let i = 0; i < 4; i++) {
        for (const [who, email] of [['known', known.email], ['unknown', unknown]] as const) {
          const reply = await app.loginInit(email);
          seen[who].push(`${reply.status} ${reply.headers.get('retry-after') ?? ''}`);
        }
      }
      app.clock.advance(QUARTER);
    }

    expect(seen.unknown).toEqual(seen.known);
    // 3 per quarter from one address, 10 a day from it (docs/codes-and-sign-in.md).
    expect(seen.known.filter((s) => s.startsWith('200'))).toHaveLength(10);
  });
});
