import { Elysia } from 'elysia';
import { cancelCheckout } from '../../../../app/checkout/cancel-checkout.ts';
import { getCheckoutStatus } from '../../../../app/checkout/checkout-status.ts';
import { DomainError } from '../../../../domain/errors.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY } from '../../auth.ts';
import { htmlPage } from '../../schemas.ts';
import { htmlResponse, scriptNonce } from '../../pages/html.ts';
import { licensePage, resultPage } from '../../pages/result-page.ts';

const detail = (summary: string, description: string, parameters: { name: string; in: string; required: boolean; description: string; schema: { type: 'string' } }[] = []) => ({
  tags: ['Checkout'],
  summary,
  description,
  security: SECURITY.none,
  parameters,
  responses: { 200: htmlPage('An HTML page.') },
});

const SESSION_ID = /^cs_[0-9A-Za-z]{1,100}$/;
const SESSION_PARAMETER = {
  name: 'session_id',
  in: 'query',
  required: false,
  description: 'The checkout session (the default successUrl carries it): once paid, the page shows its license key, for 24 hours after payment.',
  schema: { type: 'string' as const },
};

/** The default successUrl and cancelUrl: small pages that send the buyer back to the application. */
export function checkoutPages(deps: Deps) {
  const success = resultPage('success');
  const cancel = resultPage('cancel');
  const pending = resultPage('pending');

  /** The success page for this session: its key while the status would hand it out, else the plain page. */
  const successFor = async (sessionId: unknown): Promise<Response> => {
    // No query schema: a junk query still gets the page (a buyer's browser must never see an error here).
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return htmlResponse(success);
    try {
      const view = await getCheckoutStatus(deps, sessionId);
      if (view.status === 'pending') return htmlResponse(pending);
      if (view.status !== 'complete') return htmlResponse(success);
      const nonce = scriptNonce();
      return htmlResponse(licensePage({ licenseKey: view.licenseKey, ...view.license }, nonce), 200, { scriptNonce: nonce });
    } catch (error) {
      // Unknown, or paid more than 24 hours ago: the plain page, which tells nothing about the session.
      if (error instanceof DomainError) return htmlResponse(success);
      throw error;
    }
  };

  return new Elysia({ name: 'checkout-pages' })
    .get('/checkout/success', ({ query }) => successFor(query.session_id), {
      detail: detail(
        'Default success page (HTML)',
        'Where the buyer lands after paying when checkout init had no successUrl. With the session_id the default successUrl carries, it shows the license key (with a copy button) and how to activate it, for 24 hours after payment, like the checkout status.',
        [SESSION_PARAMETER],
      ),
    })
    .get(
      '/checkout/cancel',
      async ({ query }) => {
        // The buyer cancelled on the processor's page: a pending session ends (status expired), so polling stops.
        if (typeof query.session_id === 'string' && SESSION_ID.test(query.session_id)) await cancelCheckout(deps, query.session_id);
        return htmlResponse(cancel);
      },
      {
        detail: detail(
          'Default cancel page (HTML)',
          'Where the buyer lands after cancelling when checkout init had no cancelUrl. The session_id the default cancelUrl carries ends that session if it is still pending: its status answers expired from then on.',
          [{ ...SESSION_PARAMETER, description: 'The checkout session the buyer cancelled (the default cancelUrl carries it).' }],
        ),
      },
    );
}
