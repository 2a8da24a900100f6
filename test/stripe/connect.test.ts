import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { CONNECTED_ACCOUNT, GOOD_CODE, startFakeStripe } from '../support/fake-stripe.ts';
import { aProduct, aSession, CLIENT_ID, processorFor, rejectionOf, SECRET_KEY, forSale } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
});

const REDIRECT = 'https://licensing.example.com/v1/connect/callback';

describe('StripeProcessor.authorizeUrl', () => {
  test('is Stripe Connect’s OAuth page for Standard accounts, with our client id, read_write scope, state and redirect', () => {
    const url = new URL(processorFor(null).authorizeUrl('st_abc123', REDIRECT));

    expect(`${url.origin}${url.pathname}`).toBe('https://connect.stripe.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      scope: 'read_write',
      state: 'st_abc123',
      redirect_uri: REDIRECT,
    });
  });

  test('points at the API base when one is configured, so tests stay on this machine', () => {
    const url = new URL(processorFor(fake).authorizeUrl('st_abc123', REDIRECT));

    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth/authorize`);
    expect(url.searchParams.get('state')).toBe('st_abc123');
  });

  test('escapes a state or redirect that contains query characters', () => {
    const url = new URL(processorFor(null).authorizeUrl('a&b=c', 'https://x.example/cb?next=/home&y=1'));

    expect(url.searchParams.get('state')).toBe('a&b=c');
    expect(url.searchParams.get('redirect_uri')).toBe('https://x.example/cb?next=/home&y=1');
  });
});

describe('StripeProcessor.exchangeCode', () => {
  test('a good code yields the connected account id, through POST /oauth/token on the configured base', async () => {
    const result = await processorFor(fake).exchangeCode(GOOD_CODE);

    expect(result).toEqual({ accountId: CONNECTED_ACCOUNT });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/oauth/token', body: { grant_type: 'authorization_code', code: GOOD_CODE } });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  });

  test('a bad code (invalid_grant) is invalid_request', async () => {
    const error = await rejectionOf(() => processorFor(fake).exchangeCode('used_or_made_up'));

    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('The authorization code is invalid, expired or already used.');
  });
});

describe('Stripe failures', () => {
  test('a Stripe outage while exchanging a code is processor_error, after the SDK’s retries', async () => {
    fake.failNext(503, 3);

    const error = await rejectionOf(() => processorFor(fake).exchangeCode(GOOD_CODE));

    expect(error.code).toBe('processor_error');
    expect(fake.requests).toHaveLength(3);
  });

  test('a transient 500 on checkout creation is retried under the same idempotency key and succeeds', async () => {
    const session = aSession(Date.now());
    fake.failNext(500, 1);

    const result = await processorFor(fake).createCheckout({
      session,
      ...forSale(aProduct()),
      accountId: CONNECTED_ACCOUNT,
      successUrl: 'https://a.example/s',
      cancelUrl: 'https://a.example/c',
    });

    expect(result.processorSessionId).toStartWith('cs_test_');
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([`checkout-create-${session.id}`, `checkout-create-${session.id}`]);
  });

  test('an unreachable Stripe is processor_error, and the message never contains the secret key', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
    const deadBase = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);

    const error = await rejectionOf(() => processorFor({ url: deadBase }).retrieveCheckout('cs_test_x', CONNECTED_ACCOUNT));

    expect(error.code).toBe('processor_error');
    expect(error.message).not.toContain(SECRET_KEY);
    expect(JSON.stringify(error.details ?? {})).not.toContain(SECRET_KEY);
  });

  test('an API base with a path is refused at construction: the SDK could not honour it', () => {
    expect(() => processorFor({ url: 'http://127.0.0.1:1/stripe' })).toThrow('STRIPE_API_BASE must be an origin');
  });
});
