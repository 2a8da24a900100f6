import { Elysia } from 'elysia';
import { getLicense, revokeLicense, unbindLicense } from '../../../app/licenses/manage-license.ts';
import { validateLicense } from '../../../app/licenses/validate-license.ts';
import type { Deps } from '../../../ports/deps.ts';
import { clientAddress } from '../client-address.ts';
import { SECURITY, withAnyApiKey, withSecretKey, withSecretKeyOrCustomer } from '../auth.ts';
import { errorsOf, IdParams, LicenseView, ValidateBody, ValidationResult } from '../schemas.ts';

const tags = ['Licenses'];

export function licenseRoutes(deps: Deps) {
  return new Elysia({ name: 'licenses' })
    .use(
      withAnyApiKey(deps).post('/licenses/validate', ({ caller, body, request }) => {
        const { licenseKey, machineFingerprint } = body;
        return validateLicense(deps, caller.developerId, { licenseKey, machineFingerprint, clientAddress: clientAddress(request, deps.trustedProxyHeader) });
      }, {
        body: ValidateBody,
        response: { 200: ValidationResult, ...errorsOf(400, 401, 413, 429) },
        detail: {
          tags,
          summary: 'Validate a license online and bind it to a machine',
          description:
            'An invalid license is a 200 with valid=false and a reason, checked in this order: invalid_format, invalid_signature, not_found, revoked, expired, machine_mismatch. The first valid validation binds the license to its machineFingerprint. Secret or publishable key. Each license may be validated at most VALIDATE_RATE_LIMIT_PER_MINUTE times a minute (default 600); keys that name none of your licenses (invalid_format, invalid_signature, not_found) are counted per client address instead (VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE, default 120), so junk never uses up a valid license’s allowance. Counted across instances; past a limit, 429 rate_limited with Retry-After.',
          security: SECURITY.any,
        },
      }),
    )
    .use(
      withSecretKey(deps, true).post('/licenses/:id/unbind', ({ caller, params }) => unbindLicense(deps, caller.developerId, params.id), {
        params: IdParams,
        response: { 200: LicenseView, ...errorsOf(400, 401, 403, 404, 413) },
        detail: {
          tags,
          summary: 'Remove the machine binding',
          description: 'The next validation binds to the fingerprint it brings. Secret key in X-API-Key or as Authorization: Bearer sk_….',
          security: SECURITY.secretOrBearer,
        },
      }),
    )
    .use(
      withSecretKeyOrCustomer(deps).get('/licenses/:id', ({ viewer, params }) => getLicense(deps, viewer, params.id), {
        params: IdParams,
        response: { 200: LicenseView, ...errorsOf(400, 401, 403, 404) },
        detail: {
          tags,
          summary: 'License details',
          description: 'For the owning developer’s secret key (X-API-Key) or the owning customer’s identity token (Bearer); anyone else gets 404.',
          security: SECURITY.secretOrCustomer,
        },
      }),
    )
    .use(
      withSecretKey(deps)
        .post('/licenses/:id/revoke', ({ caller, params }) => revokeLicense(deps, caller.developerId, params.id), {
          params: IdParams,
          response: { 200: LicenseView, ...errorsOf(400, 401, 403, 404, 413) },
          detail: { tags, summary: 'Revoke a license', description: 'Final: validation answers revoked from now on.', security: SECURITY.secret },
        }),
    );
}
