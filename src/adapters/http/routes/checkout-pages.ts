import { Elysia } from 'elysia';
import { SECURITY } from '../auth.ts';
import { htmlResponse } from '../pages/html.ts';
import { resultPage } from '../pages/result-page.ts';

const detail = (summary: string, description: string) => ({
  tags: ['Checkout'],
  summary,
  description,
  security: SECURITY.none,
  responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' as const } } } } },
});

/** The default successUrl and cancelUrl: small pages that send the buyer back to the application. */
export function checkoutPages() {
  const success = resultPage('success');
  const cancel = resultPage('cancel');
  return new Elysia({ name: 'checkout-pages' })
    .get('/checkout/success', () => htmlResponse(success), {
      detail: detail('Default success page (HTML)', 'Where the buyer lands after paying when checkout init had no successUrl.'),
    })
    .get('/checkout/cancel', () => htmlResponse(cancel), {
      detail: detail('Default cancel page (HTML)', 'Where the buyer lands after cancelling when checkout init had no cancelUrl.'),
    });
}
