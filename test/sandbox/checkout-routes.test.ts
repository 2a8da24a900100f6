import { describe, expect, test } from 'bun:test';
import { CHECKOUT_LIFETIME_MS } from '../../src/domain/checkout-session.ts';
import { API_BASE, DECLINED, GOOD_CARD, pathOf, sandboxShop } from './support.ts';

describe('the sandbox payment page', () => {
  test('shows the product and its price with the inputs the contract names, test card pre-filled', async () => {
    const shop = await sandboxShop();
    const { sessionId, checkoutUrl } = await shop.checkout();
    const page = await shop.api.call<string>('GET', pathOf(checkoutUrl));
    expect(checkoutUrl).toBe(`${API_BASE}/sandbox/checkout/${sessionId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<h1>Pro</h1>');
    expect(page.body).toContain('$19.99');
    expect(page.body).toMatch(/<input [^>]*name="email" type="email" required[^>]* value=""/);
    expect(page.body).toMatch(/<input [^>]*name="phone" type="tel" required/);
    expect(page.body).toMatch(/<input [^>]*name="cardNumber"[^>]* value="4242 4242 4242 4242"/);
    expect(page.body).toMatch(/<button [^>]*>Pay<\/button>/);
    expect(page.body).toMatch(/<button [^>]*>Cancel<\/button>/);
  });

  test('pre-fills the e-mail that checkout init was given', async () => {
    const shop = await sandboxShop();
    const { checkoutUrl } = await shop.checkout({ email: 'ada@example.com' });
    const page = await shop.api.call<string>('GET', pathOf(checkoutUrl));
    expect(page.body).toMatch(/name="email"[^>]* value="ada@example.com"/);
  });

  test('an unknown session is a JSON 404', async () => {
    const shop = await sandboxShop();
    const page = await shop.api.call('GET', '/sandbox/checkout/cs_unknown');
    expect(page.status).toBe(404);
    expect(page.body.error.code).toBe('not_found');
  });
});

describe('Pay', () => {
  test('completes the session and sends the buyer to the success URL with a license ready to validate', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const paid = await shop.pay(sessionId);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${API_BASE}/checkout/success?session_id=${sessionId}`);
    const status = await shop.status(sessionId);
    expect(status.status).toBe('complete');
    const validation = await shop.api.call('POST', '/licenses/validate', {
      key: shop.seller.publishableKey,
      body: { licenseKey: status.licenseKey, machineFingerprint: 'm1' },
    });
    expect(validation.body.valid).toBe(true);
  });

  test('saves the buyer and their card with the checkout’s phone, as a Stripe completion does', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    await shop.pay(sessionId, { cardNumber: '5555 5555 5555 4444' });
    const session = await shop.api.deps.checkouts.findById(sessionId);
    const customer = await shop.api.deps.customers.findById(session!.customerId!);
    const cards = await shop.api.deps.cards.listFor(customer!.id, shop.seller.id);
    // The checkout's phone is no sign-in factor: it stays with the saved card (docs/customers.md).
    expect({ email: customer?.email, phone: customer?.phone }).toEqual({ email: 'buyer@example.com', phone: null });
    expect(cards.map((c) => c.phone)).toEqual(['+15550100000']);
    expect(cards.map((c) => ({ brand: c.brand, last4: c.last4, expMonth: c.expMonth }))).toEqual([{ brand: 'mastercard', last4: '4444', expMonth: 12 }]);
    expect(session?.paymentId).toBe(`pi_sandbox_${sessionId}`);
  });

  test('a second Pay on a paid session changes nothing and goes to the success URL again', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout({ successUrl: 'https://app.example.com/thanks' });
    await shop.pay(sessionId);
    const first = await shop.status(sessionId);
    const again = await shop.pay(sessionId, { email: 'someone-else@example.com' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('https://app.example.com/thanks');
    expect((await shop.status(sessionId)).license.id).toBe(first.license.id);
  });

  test('with the decline card shows the page again with the error, the inputs kept, still pending', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const declined = await shop.pay(sessionId, { cardNumber: DECLINED, phone: '+44 20 7946 0958' });
    expect(declined.status).toBe(200);
    expect(declined.body).toContain('role="alert"');
    expect(declined.body).toContain('Your card was declined');
    expect(declined.body).toMatch(/name="cardNumber"[^>]* value="4000 0000 0000 0002" aria-invalid="true"/);
    expect(declined.body).toMatch(/name="phone"[^>]* value="\+44 20 7946 0958"/);
    expect(await shop.status(sessionId)).toEqual({ status: 'pending' });
  });

  test.each([
    ['an invalid card', { cardNumber: '4242 4242 4242 4241' }, 'That card number is not valid'],
    ['an invalid e-mail', { email: 'nobody' }, 'Enter a valid e-mail address'],
    ['an invalid phone', { phone: '12' }, 'Enter a phone number with 7 to 15 digits'],
  ])('with %s explains what to fix and leaves the session pending', async (_, values, message) => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const refused = await shop.pay(sessionId, values);
    expect(refused.status).toBe(200);
    expect(refused.body).toContain(message);
    expect(await shop.status(sessionId)).toEqual({ status: 'pending' });
  });

  test('without the form fields is a JSON 400 naming them', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const bare = await shop.form(`/sandbox/checkout/${sessionId}/pay`, { email: 'a@b.co' });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ error: { code: 'invalid_request', details: { issues: expect.arrayContaining([expect.objectContaining({ field: 'phone' })]) } } });
  });

  test('a form sent without Content-Length (chunked) is read as a form too', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const paid = await shop.api.call('POST', `/sandbox/checkout/${sessionId}/pay`, {
      rawBody: new URLSearchParams(GOOD_CARD).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.status).toBe(303);
  });
});

describe('after 30 minutes', () => {
  test('the page says the checkout expired and Pay issues nothing', async () => {
    const shop = await sandboxShop();
    const { sessionId, checkoutUrl } = await shop.checkout();
    shop.api.clock.advance(CHECKOUT_LIFETIME_MS);
    const page = await shop.api.call<string>('GET', pathOf(checkoutUrl));
    const paid = await shop.pay(sessionId);
    expect(page.body).toContain('This checkout has expired');
    expect(page.body).not.toContain('<form');
    expect(paid.status).toBe(200);
    expect(paid.body).toContain('This checkout has expired');
    expect(await shop.status(sessionId)).toEqual({ status: 'expired' });
  });
});

describe('Cancel', () => {
  test('sends the buyer to the cancel URL and ends the session: its status says expired, so polling stops', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout({ cancelUrl: 'https://app.example.com/back' });
    const cancelled = await shop.cancel(sessionId);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe('https://app.example.com/back');
    expect(await shop.status(sessionId)).toEqual({ status: 'expired' });
  });

  test('a cancelled session cannot be paid afterwards: Pay shows the expired page and issues nothing', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    await shop.cancel(sessionId);
    const paid = await shop.pay(sessionId);
    expect(paid.status).toBe(200);
    expect(paid.body).toContain('This checkout has expired');
    expect(await shop.status(sessionId)).toEqual({ status: 'expired' });
  });

  test('Cancel after paying changes nothing: the session stays complete', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    await shop.pay(sessionId);
    await shop.cancel(sessionId);
    expect((await shop.status(sessionId)).status).toBe('complete');
  });

  test('defaults to the service’s cancel page, which names the session', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const cancelled = await shop.cancel(sessionId);
    expect(cancelled.headers.get('location')).toBe(`${API_BASE}/checkout/cancel?session_id=${sessionId}`);
  });

  test('landing on the default cancel page with its session_id ends a pending session (as a Stripe cancel does)', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    const page = await shop.api.call('GET', `/checkout/cancel?session_id=${sessionId}`);
    expect(page.status).toBe(200);
    expect(await shop.status(sessionId)).toEqual({ status: 'expired' });
  });

  test('the default cancel page leaves a paid session complete, and shows for unknown or junk ids alike', async () => {
    const shop = await sandboxShop();
    const { sessionId } = await shop.checkout();
    await shop.pay(sessionId);
    for (const query of [`session_id=${sessionId}`, 'session_id=cs_nope', `session_id=${'x'.repeat(500)}`, 'session_id=']) {
      const page = await shop.api.call('GET', `/checkout/cancel?${query}`);
      expect({ query, status: page.status }).toEqual({ query, status: 200 });
    }
    expect((await shop.status(sessionId)).status).toBe('complete');
  });
});
