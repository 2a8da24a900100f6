import { Elysia, t } from 'elysia';
import { EMAIL_MAX_LENGTH, normalizeEmail } from '../../../../domain/developer.ts';
import { cancelCheckout } from '../../../../app/checkout/cancel-checkout.ts';
import { completeCheckout } from '../../../../app/checkout/complete-checkout.ts';
import { describeCheckout } from '../../../../app/checkout/describe-checkout.ts';
import { offeredTrial } from '../../../../app/checkout/offered-trial.ts';
import { callbackUrl } from '../../../../app/connect/connect-account.ts';
import { InvalidRequestError, NotFoundError } from '../../../../domain/errors.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SANDBOX_CODE_PREFIX } from '../../../sandbox/sandbox-processor.ts';
import { sandboxCompletion } from '../../../sandbox/sandbox-payment.ts';
import { withSandboxSubscription } from '../../../sandbox/sandbox-subscriptions.ts';
import { sandboxClockRoutes } from './clock.ts';
import { checkoutPage } from '../../pages/checkout-page.ts';
import { connectAuthorizePage } from '../../pages/connect-pages.ts';
import { htmlResponse } from '../../pages/html.ts';
import { SECURITY } from '../../auth.ts';
import { htmlPage, Id, jsonErrors } from '../../schemas.ts';

const tags = ['Sandbox'];
/** The routes a browser's form posts to: every other route takes JSON only (see readBody). */
export const SANDBOX_FORM_ROUTES = new Set(['/v1/sandbox/checkout/:sessionId/pay', '/v1/sandbox/checkout/:sessionId/cancel']);
const Params = t.Object({ sessionId: Id() });
/** Form fields arrive as strings; the page's own maxlength keeps them well inside these bounds. */
const PayForm = t.Object(
  {
    email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'Pre-filled when checkout init was given one.' }),
    phone: t.String({ maxLength: 64, description: '7 to 15 digits, optionally after a +; spaces, dashes, dots and brackets are ignored.' }),
    cardNumber: t.String({ maxLength: 64, description: 'Any Luhn-valid number pays; 4000 0000 0000 0002 is declined. 4000 0000 0000 0341 and 4000 0027 6000 3184 pay, but later saved-card charges are declined / need authentication.' }),
  },
  { additionalProperties: true },
);
const AuthorizeQuery = t.Object(
  { state: t.String({ minLength: 1, maxLength: 512 }), redirect_uri: t.String({ maxLength: 2048 }) },
  { additionalProperties: true },
);

const seeOther = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' as const } } } });
const seeOtherResponse = (location: string) => new Response(null, { status: 303, headers: { location } });

/** The sandbox processor's pages: present only when no live payment processor is configured. */
export function sandboxRoutes(deps: Deps) {
  /** Only sessions the sandbox made: one begun with Stripe is never paid here. */
  const sandboxSession = async (sessionId: string) => {
    const view = await describeCheckout(deps, sessionId);
    if (view.session.processor !== 'sandbox') throw new NotFoundError('checkout session');
    return view;
  };
  const page = (view: Awaited<ReturnType<typeof sandboxSession>>, extra: Partial<Parameters<typeof checkoutPage>[0]> = {}) =>
    htmlResponse(checkoutPage({ ...view, apiBaseUrl: deps.settings.apiBaseUrl, ...extra }));

  return new Elysia({ name: 'sandbox' })
    .use(sandboxClockRoutes(deps))
    .get('/sandbox/checkout/:sessionId', async ({ params }) => page(await sandboxSession(params.sessionId)), {
      params: Params,
      detail: {
        tags,
        summary: 'Sandbox payment page (HTML)',
        description:
          'The checkoutUrl of sandbox mode: the seller, the product, its price (with its interval for a subscription), its terms (license term; or first renewal date; or the trial’s length and end date and the first charge at its end), and a form with email, phone and cardNumber, Pay and Cancel. The terms are the same words Stripe’s page is given. A paid session shows that it is paid; an expired one, that it expired. An unknown session is a 404: a page for a browser (Accept: text/html), JSON otherwise.',
        security: SECURITY.none,
        responses: { 200: htmlPage('The payment page.'), ...jsonErrors(400, 404) },
      },
    })
    .post(
      '/sandbox/checkout/:sessionId/pay',
      async ({ params, body }) => {
        const view = await sandboxSession(params.sessionId);
        if (view.status === 'complete') return seeOtherResponse(view.session.successUrl);
        if (view.status === 'expired') return page(view);
        const form = { email: body.email, phone: body.phone, cardNumber: body.cardNumber };
        const now = deps.clock.now();
        const payment = sandboxCompletion(view.session.id, form, now);
        if (!payment.ok) return page(view, { error: payment.reason, values: form });
        const interval = view.product.interval;
        // The trial is the buyer's now that their e-mail is known: the days left of theirs, a fresh one, or none.
        const trial = interval && (await offeredTrial(deps, view.product, normalizeEmail(payment.completion.email), now));
        const completion = interval ? withSandboxSubscription(payment.completion, view.session.id, interval, now, trial || null) : payment.completion;
        await completeCheckout(deps, view.session.id, completion);
        return seeOtherResponse(view.session.successUrl);
      },
      {
        params: Params,
        body: PayForm,
        parse: 'urlencoded',
        detail: {
          tags,
          summary: 'Pay (sandbox form post)',
          description:
            'Completes the session exactly as a Stripe checkout.session.completed does (customer and phone saved, card saved, one license issued), then 303 to successUrl. A recurring product with a trial charges nothing: the buyer’s trial (the days left of their running free trial, or the product’s trialDays, or none when they had one) runs first and the billing clock charges at its end. A declined or invalid card, e-mail or phone answers 200 with the page and the error; an expired session, the expired page. Paying a paid session again changes nothing.',
          security: SECURITY.none,
          responses: { 200: htmlPage('The page again, with why the payment failed.'), 303: seeOther('To the session’s successUrl.'), ...jsonErrors(400, 404, 413) },
        },
      },
    )
    .post(
      '/sandbox/checkout/:sessionId/cancel',
      async ({ params }) => {
        const { session } = await sandboxSession(params.sessionId);
        await cancelCheckout(deps, session.id);
        return seeOtherResponse(session.cancelUrl);
      },
      {
        params: Params,
        detail: {
          tags,
          summary: 'Cancel (sandbox form post)',
          description: 'Ends a pending session as expired (a paid one stays complete), so a polling application stops at once, then 303 to the session’s cancelUrl.',
          security: SECURITY.none,
          responses: { 303: seeOther('To the session’s cancelUrl.'), ...jsonErrors(400, 404, 413) },
        },
      },
    )
    .get(
      '/sandbox/connect/authorize',
      ({ query }) => {
        const redirectUri = acceptedRedirect(deps, query.redirect_uri);
        const code = deps.ids.secret(SANDBOX_CODE_PREFIX);
        return htmlResponse(
          connectAuthorizePage({
            authorizeUrl: withQuery(redirectUri, { code, state: query.state }),
            denyUrl: withQuery(redirectUri, { error: 'access_denied', error_description: 'The user denied your request', state: query.state }),
          }),
        );
      },
      {
        query: AuthorizeQuery,
        detail: {
          tags,
          summary: 'Sandbox Connect authorize page (HTML)',
          description:
            'Stands in for Stripe’s OAuth authorize page: Authorize goes to redirect_uri with a sandbox code and the state, Cancel with error=access_denied. redirect_uri must be this service’s /connect/callback.',
          security: SECURITY.none,
          responses: { 200: htmlPage('The authorize page.'), ...jsonErrors(400) },
        },
      },
    );
}

/** Only our own callback: the sandbox page must not bounce a code (or anyone) to another site. */
function acceptedRedirect(deps: Pick<Deps, 'settings'>, redirectUri: string): string {
  const own = callbackUrl(deps);
  if (redirectUri === own || redirectUri.startsWith(`${own}?`)) return redirectUri;
  throw new InvalidRequestError(`redirect_uri must be ${own}.`, 'redirect_uri', 'query');
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}
