import { Elysia } from 'elysia';
import { confirmPhoneChange, requestPhoneChange } from '../../../../app/customers/change-phone.ts';
import { listCustomerLicenses, removeCustomerActivation, type LicenseWithMachines } from '../../../../app/customers/customer-licenses.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withCustomer } from '../../auth.ts';
import { accountPage } from '../../pages/account-page.ts';
import { htmlResponse, scriptNonce } from '../../pages/html.ts';
import { customerRead, errorsOf, htmlPage } from '../../schemas.ts';
import { ActivationList } from '../licenses/schemas.ts';
import { publicActivation, publicActivationList } from '../licenses/views.ts';
import { buyerPageRoutes } from './buyer-pages.ts';
import { customerSubscriptionRoutes } from './subscriptions.ts';
import { CodeSent, CustomerActivationParams, CustomerLicenseList, PhoneChangeBody, PhoneChanged, PhoneChangeVerifyBody } from './schemas.ts';

const tags = ['Customers'];

const publicLicense = ({ activations, ...license }: LicenseWithMachines) => ({ ...license, activations: activations.map(publicActivation) });

/**
 * Buyer self-service (docs/activations.md, docs/customers.md): everything under /customer for a
 * logged-in customer (their licenses and machines, the confirmed phone) and the page that shows them.
 */
export function customerAccountRoutes(deps: Deps) {
  const signedIn = withCustomer(deps)
    .get('/customer/licenses', async ({ customer }) => ({ data: (await listCustomerLicenses(deps, customer.customerId)).map(publicLicense) }), customerRead(CustomerLicenseList, {
      tags,
      summary: 'The customer’s licenses with their machines',
      description:
        'Every license of the logged-in customer, across sellers, as POST /auth/login/verify lists them, each with its maxMachines and its activations (oldest first). The buyer page GET /v1/account shows the same.',
    }))
    .delete(
      '/customer/licenses/:id/activations/:activationId',
      async ({ customer, params }) => publicActivationList(await removeCustomerActivation(deps, customer.customerId, params.id, params.activationId)),
      {
        params: CustomerActivationParams,
        response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404, 413, 429) },
        detail: {
          tags,
          summary: 'Remove one of the customer’s machines',
          description:
            'Frees the slot at once and answers the machines left. Counted against the same holder quota as POST /licenses/deactivate: at most the product’s deactivationsPer30Days (default 3) per license per rolling 30 days; past it 429 rate_limited with Retry-After (seconds until the next one is allowed) and a message pointing to the seller. A product with deactivationsPer30Days 0: 403 forbidden. Another customer’s license, or an activation the license does not have: 404 not_found.',
          security: SECURITY.customer,
        },
      },
    )
    .post('/customer/phone', ({ customer, body }) => requestPhoneChange(deps, customer.customerId, body), {
      body: PhoneChangeBody,
      response: { 200: CodeSent, ...errorsOf(400, 401, 409, 413, 429, 502) },
      detail: {
        tags,
        summary: 'Add or change the sign-in phone: a code is texted to confirm it',
        description:
          'The signed-in customer (who proved the e-mail) names a phone. Without a confirmed phone, the code is texted to THAT phone: entering it proves the phone is theirs, and it becomes their sign-in phone. With a confirmed phone, the code goes to the CONFIRMED phone, not to the new one: whoever changes the phone must hold the current one. phoneMasked is where the code went. The code confirms this phone only (it cannot sign in or confirm a purchase). 400 invalid_request for a malformed phone; 409 conflict when it is already the confirmed phone; 409 sms_unavailable where the service sends no texts; 429 rate_limited beyond 3 codes per new phone per 15 minutes (and the per-phone and per-customer text limits); 502 sms_failed. A checkout never sets a phone: this is the only way one is confirmed.',
        security: SECURITY.customer,
      },
    })
    .post('/customer/phone/verify', ({ customer, body }) => confirmPhoneChange(deps, customer.customerId, body), {
      body: PhoneChangeVerifyBody,
      response: { 200: PhoneChanged, ...errorsOf(400, 401, 409, 410, 413, 422, 429) },
      detail: {
        tags,
        summary: 'Confirm the phone with the code',
        description:
          'The phone becomes the confirmed phone (added, or moved from the old one with the cards saved under it, in one transaction), so sign-in and purchase codes go to it from now on, and the saved cards of checkouts that gave it are offered. 422 otp_invalid for a wrong code, another customer’s challenge, another phone than the one asked for, a code texted to a phone no longer on file, or a sign-in or purchase code; 410 otp_expired after 5 minutes; 429 otp_attempts_exceeded after 5 tries, 429 rate_limited for an hour after 20 attempts at phone-change codes without a success; 409 conflict when another change of the phone was confirmed at the same moment and won.',
        security: SECURITY.customer,
      },
    });

  const page = new Elysia({ name: 'account-page' }).get(
    '/account',
    () => {
      const nonce = scriptNonce();
      return htmlResponse(accountPage(nonce), 200, { scriptNonce: nonce, connectSelf: true });
    },
    {
      detail: {
        tags,
        summary: 'The buyer page (HTML)',
        description:
          'A page for buyers: their e-mail, then the code texted to the phone on file, then their licenses with each key (copy button) and machines (Remove button). Its script calls the JSON routes above; the identity token stays in the tab’s sessionStorage (no cookie).',
        security: SECURITY.none,
        responses: { 200: htmlPage('An HTML page.') },
      },
    },
  );

  return new Elysia({ name: 'customer-account' }).use(page).use(buyerPageRoutes(deps)).use(signedIn).use(customerSubscriptionRoutes(deps));
}
