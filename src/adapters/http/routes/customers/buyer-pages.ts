import { Elysia, t } from 'elysia';
import { openSandboxReceipt } from '../../../../app/customers/customer-orders.ts';
import { openCardLink, recordSandboxCard, type CardLink } from '../../../../app/customers/sandbox-card.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { cardBrand, cardDigits, DECLINED_CARD_NUMBER, sandboxPaymentMethodId } from '../../../sandbox/sandbox-payment.ts';
import { SECURITY } from '../../auth.ts';
import { EXAMPLE } from '../../examples.ts';
import { cardFormPage, receiptPage } from '../../pages/buyer-pages.ts';
import { htmlResponse } from '../../pages/html.ts';
import { htmlPage, Id, jsonErrors } from '../../schemas.ts';

const tags = ['Customers'];
/** The card form posts as a browser form does: read as one (see readBody). */
export const ACCOUNT_FORM_ROUTES = new Set(['/v1/account/card/:id']);

const ReceiptParams = t.Object({ orderId: Id({ description: 'The order id (ord_…).', examples: [EXAMPLE.orderId] }) });
const ReceiptQuery = t.Object({ t: t.String({ maxLength: 64, description: 'The key of the receipt’s link.' }) }, { additionalProperties: true });
const CardParams = t.Object({ id: Id({ description: 'The subscription id (sub_…).', examples: [EXAMPLE.subscriptionId] }) });
const CardQuery = t.Object(
  { c: Id({ description: 'The customer.' }), e: t.Numeric({ description: 'When the link stops working (Unix ms).' }), t: t.String({ maxLength: 64, description: 'The link’s key.' }) },
  { additionalProperties: true },
);
const CardForm = t.Object({ cardNumber: t.String({ maxLength: 64, description: 'A Luhn-valid card number; spaces and dashes are ignored.' }) }, { additionalProperties: true });

const CARD_YEARS = 3;

/** The buyer's pages reached by a link (docs/customers.md): a sandbox order's receipt, the sandbox card form. */
export function buyerPageRoutes(deps: Deps) {
  const linkOf = (id: string, query: { c: string; e: number; t: string }): CardLink => ({ customerId: query.c, subscriptionId: id, expiresAt: query.e, mac: query.t });
  const action = (id: string, query: { c: string; e: number; t: string }) =>
    `${deps.settings.apiBaseUrl}/account/card/${encodeURIComponent(id)}?${new URLSearchParams({ c: query.c, e: String(query.e), t: query.t })}`;

  return new Elysia({ name: 'buyer-pages' })
    .get('/account/receipts/:orderId', async ({ params, query }) => htmlResponse(receiptPage(await openSandboxReceipt(deps, params.orderId, query.t))), {
      params: ReceiptParams,
      query: ReceiptQuery,
      detail: {
        tags,
        summary: 'A sandbox order’s receipt (HTML)',
        description:
          'The receiptUrl of a sandbox order in GET /customer/orders: the seller, product, amount, date, order and license ids, the buyer’s e-mail and any refund. Its t is a key made for this order under the service’s master key: the link alone opens it (as Stripe’s receipt links do), no sign-in. A wrong key, an unknown order or a Stripe order: 404.',
        security: SECURITY.none,
        responses: { 200: htmlPage('The receipt.'), ...jsonErrors(400, 404) },
      },
    })
    .get('/account/card/:id', async ({ params, query }) => {
      const { productName } = await openCardLink(deps, linkOf(params.id, query));
      return htmlResponse(cardFormPage({ action: action(params.id, query), productName }));
    }, {
      params: CardParams,
      query: CardQuery,
      detail: {
        tags,
        summary: 'The sandbox card form (HTML)',
        description:
          'Where POST /customer/card sends the buyer of a sandbox subscription: one field, the card number. Its link works 30 minutes for that customer and subscription (c, e, t: a key over them). A wrong key or another subscription: 404; an expired link: 410 otp_expired; an ended subscription: 409.',
        security: SECURITY.none,
        responses: { 200: htmlPage('The card form.'), ...jsonErrors(400, 404, 409, 410) },
      },
    })
    .post('/account/card/:id', async ({ params, query, body }) => {
      const link = linkOf(params.id, query);
      const { productName } = await openCardLink(deps, link);
      const digits = cardDigits(body.cardNumber);
      const error = !digits ? 'That card number is not valid: check it and try again.' : digits === DECLINED_CARD_NUMBER ? 'That card was declined: use another card.' : null;
      if (!digits || error) return htmlResponse(cardFormPage({ action: action(params.id, query), productName, error: error! }), 422);
      const subscription = (await deps.subscriptions.findForCustomer(link.customerId, link.subscriptionId))!;
      const customer = await deps.customers.findById(subscription.customerId);
      const saved = await recordSandboxCard(deps, link, {
        processorPaymentMethodId: sandboxPaymentMethodId(customer?.email ?? subscription.customerId, digits),
        brand: cardBrand(digits),
        last4: digits.slice(-4),
        expMonth: 12,
        expYear: new Date(deps.clock.now()).getUTCFullYear() + CARD_YEARS,
      });
      return htmlResponse(cardFormPage({ action: action(params.id, query), productName, saved }));
    }, {
      params: CardParams,
      query: CardQuery,
      body: CardForm,
      parse: 'urlencoded',
      detail: {
        tags,
        summary: 'Save the sandbox card',
        description:
          'The form’s post (application/x-www-form-urlencoded): a Luhn-valid number is saved as the customer’s card with this seller (4000 0000 0000 0002 is declined, as at the sandbox checkout; 4000 0000 0000 0341 saves a card whose later charges fail) and the page says so; an invalid or declined number shows the form again with the problem (422).',
        security: SECURITY.none,
        responses: { 200: htmlPage('Saved.'), 422: htmlPage('The form again, with the problem.'), ...jsonErrors(400, 404, 409, 410, 413) },
      },
    });
}
