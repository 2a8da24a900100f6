import { describe, expect, test } from 'bun:test';
import { FixedClock } from '../support/clock.ts';
import { signatureHeader, stripeEvent } from '../support/fake-stripe.ts';
import { processorFor, rejectionOf, WEBHOOK_SECRET } from './fixtures.ts';

const clock = new FixedClock(Date.UTC(2026, 0, 1, 12, 0, 0));
const processor = processorFor(null, clock);
const nowSeconds = Math.floor(clock.now() / 1000);
const body = stripeEvent('checkout.session.expired', { id: 'cs_test_1', object: 'checkout.session', client_reference_id: 'cs_ours1' });

async function invalidSignature(rawBody: string, header: string | null) {
  const error = await rejectionOf(() => processor.parseWebhook(rawBody, header));
  expect(error.message).toBe('The Stripe-Signature header does not match the body.');
  return error.code;
}

describe('StripeProcessor.parseWebhook signature (HMAC-SHA256 over t.rawBody, any v1, 300 s)', () => {
  test('a body signed with our secret just now is accepted', async () => {
    const header = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds);

    const event = await processor.parseWebhook(body, header);

    expect(event).toMatchObject({ kind: 'checkout_expired', processorSessionId: 'cs_test_1' });
  });

  test('a signature 300 s old is still within tolerance', async () => {
    const header = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds - 300);

    expect(await processor.parseWebhook(body, header)).toMatchObject({ kind: 'checkout_expired' });
  });

  test('a signature 301 s old is invalid_signature (a replay)', async () => {
    const header = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds - 301);

    expect(await invalidSignature(body, header)).toBe('invalid_signature');
  });

  test('a body signed with another secret is invalid_signature', async () => {
    const header = await signatureHeader(body, 'whsec_someone_else', nowSeconds);

    expect(await invalidSignature(body, header)).toBe('invalid_signature');
  });

  test('a body altered after signing is invalid_signature, even by one space', async () => {
    const header = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds);

    expect(await invalidSignature(`${body} `, header)).toBe('invalid_signature');
    expect(await invalidSignature(body.replace('cs_ours1', 'cs_ours2'), header)).toBe('invalid_signature');
  });

  test('with two v1 signatures, one matching is enough (secret rotation)', async () => {
    const stale = await signatureHeader(body, 'whsec_rolled_secret', nowSeconds);
    const valid = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds);
    const header = `${stale},v1=${valid.split('v1=')[1]}`;
    expect(header.match(/v1=/g)).toHaveLength(2);

    expect(await processor.parseWebhook(body, header)).toMatchObject({ kind: 'checkout_expired' });
  });

  test('with two v1 signatures neither of which matches, it is invalid_signature', async () => {
    const a = await signatureHeader(body, 'whsec_one', nowSeconds);
    const b = await signatureHeader(body, 'whsec_two', nowSeconds);

    expect(await invalidSignature(body, `${a},v1=${b.split('v1=')[1]}`)).toBe('invalid_signature');
  });

  test('a missing, empty or malformed header is invalid_signature', async () => {
    expect(await invalidSignature(body, null)).toBe('invalid_signature');
    expect(await invalidSignature(body, '')).toBe('invalid_signature');
    expect(await invalidSignature(body, 'v1=abc')).toBe('invalid_signature');
    expect(await invalidSignature(body, `t=${nowSeconds},v0=abc`)).toBe('invalid_signature');
  });

  test('without a configured webhook secret, webhooks are not_found whatever the signature', async () => {
    const header = await signatureHeader(body, WEBHOOK_SECRET, nowSeconds);

    const error = await rejectionOf(() => processorFor(null, clock, null).parseWebhook(body, header));

    expect(error.code).toBe('not_found');
  });
});
