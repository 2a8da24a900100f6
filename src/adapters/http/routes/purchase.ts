import { t } from 'elysia';
import { confirmPurchase } from '../../../app/purchase/confirm-purchase.ts';
import { sendPurchaseCode, startPurchase } from '../../../app/purchase/purchase.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../auth.ts';
import { EXAMPLE } from '../examples.ts';
import { errorsOf, Id, Input } from '../schemas.ts';
import { CodeSent } from './customers/schemas.ts';
import { IssuedLicense } from './licenses/schemas.ts';
import { idempotent, underKey } from '../idempotency.ts';
import { issuedAgain } from './licenses/views.ts';

const PurchaseInitBody = Input({ productId: Id() }, { examples: [{ productId: EXAMPLE.productId }] });

const PurchaseOffer = t.Object({
  purchaseId: t.String(),
  productId: t.String(),
  productName: t.String(),
  amount: t.Integer({ description: 'Minor units.' }),
  currency: t.String(),
  cards: t.Array(t.Object({ id: t.String(), brand: t.String(), last4: t.String(), expMonth: t.Integer(), expYear: t.Integer() })),
});

const PurchaseOtpBody = Input({ purchaseId: Id() }, { examples: [{ purchaseId: EXAMPLE.purchaseId }] });

const PurchaseConfirmBody = Input({
  purchaseId: Id(),
  otpId: Id(),
  otp: t.String({ maxLength: 20 }),
  cardId: Id(),
}, { examples: [{ purchaseId: EXAMPLE.purchaseId, otpId: EXAMPLE.otpId, otp: EXAMPLE.otp, cardId: EXAMPLE.cardId }] });

const tags = ['Purchases'];

/** Terminal purchases with a saved card, for a logged-in customer. */
export function purchaseRoutes(deps: Deps) {
  return withCustomer(deps)
    .post('/purchase/init', ({ customer, body }) => startPurchase(deps, customer.customerId, body), {
      body: PurchaseInitBody,
      response: { 200: PurchaseOffer, ...errorsOf(400, 401, 404, 409, 413) },
      detail: {
        tags,
        summary: 'Begin a purchase: the amount and the saved cards',
        description: 'The cards are those the customer saved with this product’s seller in an earlier checkout.',
        security: SECURITY.customer,
      },
    })
    .post('/purchase/otp', ({ customer, body }) => sendPurchaseCode(deps, customer.customerId, body), {
      body: PurchaseOtpBody,
      response: { 200: CodeSent, ...errorsOf(400, 401, 404, 409, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Text the code that confirms this purchase',
        description:
          'The code confirms this purchase only. At most 3 codes per purchase per 15 minutes, and 5 texts per 15 minutes and 20 per 24 hours per customer and per phone number across all kinds of codes (429 rate_limited with Retry-After). 429 rate_limited while purchase codes are locked (20 tries without a success lock them for an hour).',
        security: SECURITY.customer,
      },
    })
    .post('/purchase/confirm', ({ customer, body, request }) => underKey(request, () => confirmPurchase(deps, customer.customerId, body)), {
      body: PurchaseConfirmBody,
      ...idempotent(deps, issuedAgain(deps, 200)),
      response: { 200: IssuedLicense, ...errorsOf(400, 401, 402, 404, 409, 410, 413, 422, 429, 502) },
      detail: {
        tags,
        summary: 'Confirm with the code: charge the saved card, get the license',
        description:
          'Charges the card off-session once and issues one license; confirming again returns the same license and charges nothing, however concurrent (every confirm counts as a try of the code: past 5, 429 otp_attempts_exceeded unless the purchase is already paid or being charged). 429 rate_limited for an hour once 20 tries at purchase codes went without a success. 402 card_declined leaves the purchase open for another card; 402 authentication_required means the card needs its holder: buy in the browser checkout instead.',
        security: SECURITY.customer,
      },
    });
}
