import { describe, expect, test } from 'bun:test';
import { FixedClock } from '../support/clock.ts';
import { sqliteDeps } from '../support/deps.ts';
import { testApi } from '../support/http.ts';
import { world } from './fixtures.ts';

const DAY = 86_400_000;

/** A clock that moves a millisecond on every read: two reads for one event would show. */
class TickingClock extends FixedClock {
  override now(): number {
    return this.time++;
  }
}

/**
 * issuedAt and a product's default expiresAt come from one clock read (issue 10): a 30-day license
 * lasts exactly 30 days, whichever path issues it.
 */
describe('a product’s term, counted from the one clock read that dates the license', async () => {
  const w = await world(testApi({ deps: sqliteDeps(':memory:', new TickingClock()).deps }));
  await w.api.call('PATCH', `/developers/products/${w.mine.product.id}`, { key: w.mine.apiKey, body: { licenseDays: 30 } });
  const term = (license: { issuedAt: number; expiresAt: number | null }) => license.expiresAt! - license.issuedAt;

  test('a granted license', async () => {
    const { license } = await w.mine.grant();
    expect(term(license)).toBe(30 * DAY);
  });

  test('a license bought through checkout', async () => {
    const form = 'email=clock%40example.com&phone=%2B15557650000&cardNumber=4242424242424242';
    await w.api.call('POST', `/sandbox/checkout/${w.sessionId}/pay`, { rawBody: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const status = await w.api.call('GET', `/checkout/status/${w.sessionId}`);
    expect(status.body.status).toBe('complete');
    expect(term(status.body.license)).toBe(30 * DAY);
  });

  test('a license bought in the terminal with a saved card', async () => {
    const reply = await w.api.call('POST', '/purchase/confirm', { headers: w.customer.auth, body: w.customer.purchase });
    expect(reply.status).toBe(200);
    expect(term(reply.body.license)).toBe(30 * DAY);
  });
});
