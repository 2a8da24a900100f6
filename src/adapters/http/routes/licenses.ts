import { Elysia } from 'elysia';
import { getLicense, revokeLicense, unbindLicense } from '../../../app/licenses/manage-license.ts';
import { validateLicense } from '../../../app/licenses/validate-license.ts';
import type { Deps } from '../../../ports/deps.ts';
import { clientAddress } from '../client-address.ts';
import { SECURITY, withAnyApiKey, withSecretKey, withSecretKeyOrCustomer } from '../auth.ts';
import { errorsOf, IdParams, LicenseView, ValidateBody, ValidationResult } from '../schemas.ts';
import { answerSigner } from '../../../app/licenses/sign-answer.ts';
import { readNonce, signedAnswer, SIGNED_ANSWER_DOC, SIGNED_ANSWER_PARAMETERS } from '../signed-answer.ts';

const tags = ['Licenses'];

export function licenseRoutes(deps: Deps) {
  const sign = answerSigner(deps);
  return new Elysia({ name: 'licenses' })
    .use(
      withAnyApiKey(deps).post('/licenses/validate', async ({ caller, body, request }) => {
        const nonce = readNonce(request);
        const { licenseKey, machineFingerprint } = body;
        const result = await validateLicense(deps, caller.developerId, { licenseKey, machineFingerprint, clientAddress: clientAddress(request, deps.settings.trustedProxyHeader) });
        return signedAnswer(sign, request, caller.developerId, result, { op: 'validate', nonce, machineFingerprint });
      }, {
        body: ValidateBody,
        response: { 200: ValidationResult, ...errorsOf(400, 401, 413, 429) },
        detail: {
          tags,
          summary: 'Validate a license online and bind it to a machine',
          description:
            'An invalid license is a 200 with valid=false and a reason, checked in this order: invalid_format, invalid_signature, not_found, revoked, expired, machine_mismatch. A new machineFingerprint takes one of the license’s maxMachines slots (docs/activations.md); with none free the answer is machine_mismatch, and a known one never takes a second. Secret or publishable key. Each license may be validated at most VALIDATE_RATE_LIMIT_PER_MINUTE times a minute (default 600); keys that name none of your licenses (invalid_format, invalid_signature, not_found) are counted per client address instead (VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE, default 120), so junk never uses up a valid license’s allowance. Counted across instances; past a limit, 429 rate_limited with Retry-After.' + SIGNED_ANSWER_DOC,
          parameters: SIGNED_ANSWER_PARAMETERS,
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
          summary: 'Remove every machine (all activations)',
          description: 'Removes every activation; the next validations take the freed slots. Not counted against the holder’s deactivation quota. Secret key in X-API-Key or as Authorization: Bearer sk_….',
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
