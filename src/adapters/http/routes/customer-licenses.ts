import { Elysia } from 'elysia';
import { listCustomerLicenses, removeCustomerActivation, type LicenseWithMachines } from '../../../app/customers/customer-licenses.ts';
import type { ActivationList as List } from '../../../app/licenses/seller-activations.ts';
import type { Activation } from '../../../domain/activation.ts';
import type { Deps } from '../../../ports/deps.ts';
import { ActivationList } from '../activation-schemas.ts';
import { SECURITY, withCustomer } from '../auth.ts';
import { CustomerActivationParams, CustomerLicenseList } from '../customer-license-schemas.ts';
import { accountPage } from '../pages/account-page.ts';
import { htmlResponse, scriptNonce } from '../pages/html.ts';
import { errorsOf } from '../schemas.ts';

const tags = ['Customers'];

const publicActivation = ({ id, name, machineFingerprint, createdAt, lastSeenAt }: Activation) => ({ id, name, machineFingerprint, createdAt, lastSeenAt });
const publicLicense = ({ activations, ...license }: LicenseWithMachines) => ({ ...license, activations: activations.map(publicActivation) });
const publicList = (list: List) => ({ licenseId: list.licenseId, maxMachines: list.maxMachines, data: list.data.map(publicActivation) });

/** Buyer self-service (docs/activations.md): a logged-in customer's licenses and machines, and the page that shows them. */
export function customerLicenseRoutes(deps: Deps) {
  const signedIn = withCustomer(deps)
    .get('/customer/licenses', async ({ customer }) => ({ data: (await listCustomerLicenses(deps, customer.customerId)).map(publicLicense) }), {
      response: { 200: CustomerLicenseList, ...errorsOf(400, 401) },
      detail: {
        tags,
        summary: 'The customer’s licenses with their machines',
        description:
          'Every license of the logged-in customer, across sellers, as POST /auth/login/verify lists them, each with its maxMachines and its activations (oldest first). The buyer page GET /v1/account shows the same.',
        security: SECURITY.customer,
      },
    })
    .delete(
      '/customer/licenses/:id/activations/:activationId',
      async ({ customer, params }) => publicList(await removeCustomerActivation(deps, customer.customerId, params.id, params.activationId)),
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
    );

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
        responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' as const } } } } },
      },
    },
  );

  return new Elysia({ name: 'customer-licenses' }).use(page).use(signedIn);
}
