import { afterAll, expect, test } from 'bun:test';
import { FixedClock } from '../support/clock.ts';
import { CONNECTED_ACCOUNT, GOOD_CODE, signatureHeader, startFakeStripe, stripeEvent } from '../support/fake-stripe.ts';
import { aProduct, aSession, processorFor, WEBHOOK_SECRET, forSale } from './fixtures.ts';

const fake = await startFakeStripe();
afterAll(() => fake.stop());

test('with an API base set, every call the SDK makes (OAuth included) goes to 127.0.0.1 and nowhere else', async () => {
  // The SDK picks up the global fetch when it is built: watch every URL it is handed, then let it through.
  const original = globalThis.fetch;
  const destinations: string[] = [];
  globalThis.fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
    destinations.push(new URL(input instanceof Request ? input.url : String(input)).host);
    return original(input, init);
  }, original);
  try {
    const clock = new FixedClock();
    const processor = processorFor(fake, clock);
    fake.requests.length = 0;

    await processor.exchangeCode(GOOD_CODE);
    const { processorSessionId } = await processor.createCheckout({
      session: aSession(clock.now()),
      ...forSale(aProduct()),
      accountId: CONNECTED_ACCOUNT,
      successUrl: 'https://a.example/s',
      cancelUrl: 'https://a.example/c',
    });
    await processor.retrieveCheckout(processorSessionId, CONNECTED_ACCOUNT);
    const body = stripeEvent('customer.created', { id: 'cus_1' });
    await processor.parseWebhook(body, await signatureHeader(body, WEBHOOK_SECRET, Math.floor(clock.now() / 1000)));

    const fakeHost = new URL(fake.url).host;
    expect(fakeHost).toStartWith('127.0.0.1:');
    expect(destinations).toEqual([fakeHost, fakeHost, fakeHost]);
    expect(fake.requests.map((r) => `${r.method} ${r.host}${r.path}`)).toEqual([
      `POST ${fakeHost}/oauth/token`,
      `POST ${fakeHost}/v1/checkout/sessions`,
      `GET ${fakeHost}/v1/checkout/sessions/${processorSessionId}`,
    ]);
  } finally {
    globalThis.fetch = original;
  }
});
