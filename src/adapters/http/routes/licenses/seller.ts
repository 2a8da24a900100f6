import { Elysia } from 'elysia';
import { grantLicense } from '../../../../app/licenses/grant-license.ts';
import { setLicenseEntitlements } from '../../../../app/licenses/license-entitlements.ts';
import { listLicenses } from '../../../../app/licenses/list-licenses.ts';
import { getLicense, revokeLicense, unbindLicense } from '../../../../app/licenses/manage-license.ts';
import { RESENDS_PER_DAY, resendReceipt } from '../../../../app/licenses/resend-receipt.ts';
import { changeLicenseThenListActivations, listActivations, removeActivation } from '../../../../app/licenses/seller-activations.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY, withSecretKey, withSecretKeyOrCustomer } from '../../auth.ts';
import { errorsOf, IdParams, LicenseView, sellerGet, sellerRead } from '../../schemas.ts';
import { ActivationList, ActivationParams, EntitlementsBody, GrantBody, IssuedLicense, LicenseChangesBody, LicenseDetails, LicenseList, LicenseListQuery, ResendAnswer } from './schemas.ts';
import { issuedAgain, publicActivationList } from './views.ts';
import { idempotent, underKey } from '../../idempotency.ts';

const tags = ['Licenses'];
const security = SECURITY.secret;

/** The seller's licenses: /developers/licenses and everything under /licenses/:id (secret key). */
export function licenseSellerRoutes(deps: Deps) {
  const seller = withSecretKey(deps)
    .post('/developers/licenses', async ({ caller, body, set, request }) => {
      set.status = 201;
      return underKey(request, () => grantLicense(deps, caller.developerId, body));
    }, {
      body: GrantBody,
      ...idempotent(deps, issuedAgain(deps, 201)),
      response: { 201: IssuedLicense, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags, security, summary: 'Grant a license by hand',
        description: 'For beta testers or support: the same key format as a sold license. The license holds the product’s features plus any given in features (case-insensitively distinct; docs/entitlements.md); the term defaults to the product’s. The customer is e-mailed a receipt with the key and the activation command unless notify is false.',
      },
    })
    .get('/developers/licenses', ({ caller, query }) => listLicenses(deps, caller.developerId, query), sellerRead(LicenseListQuery, LicenseList, {
      tags, summary: 'List your licenses, newest first',
      description:
        'Every license of the caller (never another developer’s), newest first, each with its customer’s e-mail. Filters combine: productId, email (exact, case-insensitive), status (active, expired or revoked, as of now), trial, and the issue time [createdAfter, createdBefore). status=expired lists by expiry, most recently expired first. Cursor pagination: pass the last id as startingAfter while hasMore; pages neither skip nor repeat when licenses are issued meanwhile.',
    }))
    .post('/licenses/:id/revoke', ({ caller, params }) => revokeLicense(deps, caller.developerId, params.id), {
      params: IdParams,
      response: { 200: LicenseView, ...errorsOf(400, 401, 403, 404, 413) },
      detail: { tags, security, summary: 'Revoke a license', description: 'Final: validation answers revoked from now on.' },
    })
    .post('/licenses/:id/resend', async ({ caller, params, set }) => {
      const queued = await resendReceipt(deps, caller.developerId, params.id);
      set.status = 202;
      return queued;
    }, {
      params: IdParams,
      response: { 202: ResendAnswer, ...errorsOf(400, 401, 403, 404, 413, 429) },
      detail: {
        tags, security, summary: 'E-mail the license key to its customer again',
        description: `Queues the receipt again (the key, the activation command and the account link) to the customer’s e-mail: 202 once queued. At most ${RESENDS_PER_DAY} per license per day (UTC), then 429 rate_limited with Retry-After. A revoked license may be resent: the mail says it is revoked. Another seller’s license: 404.`,
      },
    })
    .patch('/licenses/:id', async ({ caller, params, body }) => publicActivationList(await changeLicenseThenListActivations(deps, caller.developerId, params.id, body)), {
      params: IdParams,
      body: LicenseChangesBody,
      response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags: ['Activations'], security, summary: 'Change a license’s maxMachines',
        description: 'Only this license (the product’s maxMachines applies to licenses issued later). Lowered below the number of machines it has, every one of them keeps working; no new machine fits until enough are removed.',
      },
    })
    .put('/licenses/:id/entitlements', ({ caller, params, body }) => setLicenseEntitlements(deps, caller.developerId, params.id, body.entitlements), {
      params: IdParams,
      body: EntitlementsBody,
      response: { 200: IssuedLicense, ...errorsOf(400, 401, 403, 404, 409, 413) },
      detail: {
        tags, security, summary: 'Set a license’s own entitlements',
        description:
          'The license then holds its product’s current entitlements plus these (codes compared case-insensitively, the first spelling kept; at most 100 in all, each 1 to 100 characters without control characters), and gets a new key re-signed with them (same id, term and machines, as a renewal): 200 with the license and its licenseKey, and the license.updated event. The replaced key still validates, and its validation answer hands the new key over (docs/renewals.md). The same set again changes nothing: the same key, no event. Concurrent changes end in one of them, each answered 200. A revoked license or a free trial: 409 conflict. Another seller’s license: 404. docs/entitlements.md.',
      },
    })
    .get('/licenses/:id/activations', async ({ caller, params }) => publicActivationList(await listActivations(deps, caller.developerId, params.id)), sellerGet(IdParams, ActivationList, { tags: ['Activations'], summary: 'A license’s machines', description: 'Oldest first, with the license’s maxMachines. Another seller’s license: 404.' }))
    .delete('/licenses/:id/activations/:activationId', async ({ caller, params }) => publicActivationList(await removeActivation(deps, caller.developerId, params.id, params.activationId)), {
      params: ActivationParams,
      response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404, 413) },
      detail: { tags: ['Activations'], security, summary: 'Remove a machine', description: 'Frees its slot at once; not counted against the holder’s deactivation quota. Answers the machines left.' },
    });

  return new Elysia({ name: 'license-seller' })
    .use(seller)
    .use(
      withSecretKey(deps, true).post('/licenses/:id/unbind', ({ caller, params }) => unbindLicense(deps, caller.developerId, params.id), {
        params: IdParams,
        response: { 200: LicenseView, ...errorsOf(400, 401, 403, 404, 413) },
        detail: {
          tags,
          summary: 'Remove every machine (all activations)',
          description: 'Removes every activation; the next validations take the freed slots. Not counted against the holder’s deactivation quota. Secret key in X-API-Key or as Authorization: Bearer sk_….',
          security: SECURITY.secretOrBearer,
        },
      }),
    )
    .use(
      // The owning customer may read it too, with an identity token.
      withSecretKeyOrCustomer(deps).get('/licenses/:id', ({ viewer, params }) => getLicense(deps, viewer, params.id), {
        params: IdParams,
        response: { 200: LicenseDetails, ...errorsOf(400, 401, 403, 404) },
        detail: {
          tags,
          summary: 'License details',
          description: 'For the owning developer’s secret key (X-API-Key), with the licenseKey (to give it to the buyer again), or the owning customer’s identity token (Bearer), without it; anyone else gets 404.',
          security: SECURITY.secretOrCustomer,
        },
      }),
    );
}
