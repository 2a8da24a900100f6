import { Elysia } from 'elysia';
import { activateMachine, deactivateMachine, listHeldActivations } from '../../../../app/licenses/activations.ts';
import { answerSigner } from '../../../../app/licenses/sign-answer.ts';
import { validateLicense } from '../../../../app/licenses/validate-license.ts';
import { VALIDATION_PRECEDENCE } from '../../../../domain/validation.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { withAnyApiKey } from '../../auth.ts';
import { clientAddress } from '../../client-address.ts';
import { errorsOf } from '../../schemas.ts';
import { readNonce, signedAnswer, signedAnswerDetail } from '../../signed-answer.ts';
import { ActivateBody, ActivationList, askedEntitlements, ActivationReply, DeactivateBody, HeldActivationsBody, scopeOf, ValidateBody, ValidationResult } from './schemas.ts';
import { holderCall } from './holder-call.ts';
import { publicActivation, publicActivationList } from './views.ts';

/**
 * What a license key holder calls (publishable or secret key, plus the license key as proof). The
 * answers are signed (docs/signed-answers.md), so a forged one is detected.
 */
export function licenseHolderRoutes(deps: Deps) {
  const sign = answerSigner(deps);
  const address = (request: Request) => clientAddress(request, deps.settings.trustedProxyHeader);
  const holder = withAnyApiKey(deps)
    .post('/licenses/validate', async ({ caller, body, request }) => {
      const nonce = readNonce(request);
      const { licenseKey, machineFingerprint, legacyFingerprint, productId, machineName, scope } = body;
      const entitlements = askedEntitlements(scope);
      const result = await validateLicense(deps, caller.developerId, { licenseKey, machineFingerprint, legacyFingerprint, machineName, clientAddress: () => address(request), productIds: scopeOf(productId), entitlements });
      deps.metrics.validation(result.valid ? 'valid' : result.reason);
      return signedAnswer(sign, request, caller.developerId, result, { op: 'validate', nonce, machineFingerprint });
    }, {
      body: ValidateBody,
      response: { 200: ValidationResult, ...errorsOf(400, 401, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Licenses'],
        summary: 'Validate a license online and bind it to a machine',
        description:
          `An invalid license is a 200 with valid=false and a reason, checked in this order: ${VALIDATION_PRECEDENCE.join(', ')}.` +
          ' A new machineFingerprint takes one of the license’s maxMachines slots (docs/activations.md); with none free the answer is machine_mismatch, and a known one never takes a second. Secret or publishable key. Each license may be validated at most VALIDATE_RATE_LIMIT_PER_MINUTE times a minute (default 600); keys that name none of your licenses (invalid_format, invalid_signature, not_found) are counted per client address instead (VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE, default 120), so junk never uses up a valid license’s allowance. Counted across instances; past a limit, 429 rate_limited with Retry-After. productId (one id or a list) names the application’s products: a key of another product of yours is answered exactly as an unknown key (valid=false, not_found, same signature, nothing bound, counted per address). scope.entitlements (optional, at most 100 codes, case-insensitive) names what the application needs now: a license that is neither revoked nor expired but lacks any of them is answered valid=false, reason not_found (the closed reason set has no other word for it: this license is not one for what was asked), with missingEntitlements listing the codes it lacks as they were asked; nothing is bound, and the call is counted against the license. docs/entitlements.md.',
      }),
    })
    .post('/licenses/activate', async ({ caller, body, request }) => {
      const { licenseKey, machineFingerprint, legacyFingerprint, name, productId, scope } = body;
      const nonce = readNonce(request);
      const { activation, created } = await activateMachine(deps, holderCall(deps, caller.developerId, request, productId), { licenseKey, machineFingerprint, legacyFingerprint, name, entitlements: askedEntitlements(scope) });
      const answer = { activation: publicActivation(activation) };
      return signedAnswer(sign, request, caller.developerId, answer, { op: 'activate', nonce, machineFingerprint }, created ? 201 : 200);
    }, {
      body: ActivateBody,
      response: { 200: ActivationReply, 201: ActivationReply, ...errorsOf(400, 401, 404, 409, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Activations'],
        summary: 'Activate this machine',
        description:
          'Takes one of the license’s maxMachines slots for machineFingerprint: 201 with the new activation, or 200 with the existing one when this machine already holds a slot. Full: 409 activation_limit, details.activations lists the current machines’ ids and names. An unknown key, another seller’s, or one of a product not in productId: 404 not_found; a revoked or expired license: 409 conflict with details.reason. With scope.entitlements, a license lacking any of them: 404 not_found with details.missingEntitlements (the codes as asked), no machine taken. Counted like a validation. Publishable or secret key.',
      }),
    })
    .post('/licenses/deactivate', async ({ caller, body, request }) => {
      const { licenseKey, machineFingerprint, productId } = body;
      const nonce = readNonce(request);
      const removed = await deactivateMachine(deps, holderCall(deps, caller.developerId, request, productId), { licenseKey, machineFingerprint });
      return signedAnswer(sign, request, caller.developerId, { activation: publicActivation(removed) }, { op: 'deactivate', nonce, machineFingerprint });
    }, {
      body: DeactivateBody,
      response: { 200: ActivationReply, ...errorsOf(400, 401, 403, 404, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Activations'],
        summary: 'Deactivate this machine',
        description:
          'Frees the slot of machineFingerprint (200 with the removed activation; no such activation: 404; an unknown key or one of a product not in productId: 404). At most the product’s deactivationsPer30Days (default 3) per license per rolling 30 days; past it 429 rate_limited with Retry-After (seconds until the next one is allowed) and a message pointing to the seller, who can remove machines at any time. A product with deactivationsPer30Days 0: 403 forbidden. Publishable or secret key.',
      }),
    })
    .post('/licenses/activations', async ({ caller, body, request }) => {
      const nonce = readNonce(request);
      const list = await listHeldActivations(deps, holderCall(deps, caller.developerId, request, body.productId), { licenseKey: body.licenseKey });
      return signedAnswer(sign, request, caller.developerId, publicActivationList(list), { op: 'activations', nonce });
    }, {
      body: HeldActivationsBody,
      response: { 200: ActivationList, ...errorsOf(400, 401, 404, 413, 429) },
      detail: signedAnswerDetail({
        tags: ['Activations'],
        summary: 'This license’s machines (holder)',
        description:
          'The machines of the license whose key is sent, oldest first, with its maxMachines: what a client shows before the buyer deactivates one. An unknown key, another seller’s, or one of a product not in productId: 404 not_found. Counted like a validation. Publishable or secret key. The signed header carries no machineFingerprint (the request names none).',
      }),
    });
  return new Elysia({ name: 'license-holder' }).use(holder);
}
