import { Elysia } from 'elysia';
import { activateMachine, deactivateMachine, listHeldActivations } from '../../../app/licenses/activations.ts';
import { listActivations, removeActivation, setLicenseMaxMachines, type ActivationList as List } from '../../../app/licenses/seller-activations.ts';
import type { Activation as DomainActivation } from '../../../domain/activation.ts';
import type { Deps } from '../../../ports/deps.ts';
import { ActivateBody, ActivationList, ActivationParams, ActivationReply, DeactivateBody, HeldActivationsBody, LicenseChangesBody } from '../activation-schemas.ts';
import { SECURITY, withAnyApiKey, withSecretKey } from '../auth.ts';
import { answerSigner } from '../../../app/licenses/sign-answer.ts';
import { readNonce, signedAnswer, SIGNED_ANSWER_DOC, SIGNED_ANSWER_PARAMETERS } from '../signed-answer.ts';
import { clientAddress } from '../client-address.ts';
import { errorsOf, IdParams } from '../schemas.ts';

const tags = ['Activations'];

const publicActivation = ({ id, name, machineFingerprint, createdAt, lastSeenAt }: DomainActivation) => ({ id, name, machineFingerprint, createdAt, lastSeenAt });
const publicList = (list: List) => ({ licenseId: list.licenseId, maxMachines: list.maxMachines, data: list.data.map(publicActivation) });

/** The holder's routes (publishable or secret key, plus the license key as proof) and the seller's (secret key). */
export function activationRoutes(deps: Deps) {
  // The holder's answers are signed like validation's (docs/signed-answers.md), so a forged one is detected.
  const sign = answerSigner(deps);
  const holder = withAnyApiKey(deps)
    .post('/licenses/activate', async ({ caller, body, request }) => {
      const { licenseKey, machineFingerprint, name } = body;
      const nonce = readNonce(request);
      const address = clientAddress(request, deps.settings.trustedProxyHeader);
      const { activation, created } = await activateMachine(deps, caller.developerId, { licenseKey, machineFingerprint, name, clientAddress: address });
      const answer = { activation: publicActivation(activation) };
      return signedAnswer(sign, request, caller.developerId, answer, { op: 'activate', nonce, machineFingerprint }, created ? 201 : 200);
    }, {
      body: ActivateBody,
      response: { 200: ActivationReply, 201: ActivationReply, ...errorsOf(400, 401, 404, 409, 413, 429) },
      detail: {
        tags,
        summary: 'Activate this machine',
        description:
          'Takes one of the license’s maxMachines slots for machineFingerprint: 201 with the new activation, or 200 with the existing one when this machine already holds a slot. Full: 409 activation_limit, details.activations lists the current machines’ ids and names. An unknown key or another seller’s: 404 not_found; a revoked or expired license: 409 conflict with details.reason. Counted like a validation. Publishable or secret key.' + SIGNED_ANSWER_DOC,
        parameters: SIGNED_ANSWER_PARAMETERS,
        security: SECURITY.any,
      },
    })
    .post('/licenses/deactivate', async ({ caller, body, request }) => {
      const { licenseKey, machineFingerprint } = body;
      const nonce = readNonce(request);
      const address = clientAddress(request, deps.settings.trustedProxyHeader);
      const removed = await deactivateMachine(deps, caller.developerId, { licenseKey, machineFingerprint, clientAddress: address });
      return signedAnswer(sign, request, caller.developerId, { activation: publicActivation(removed) }, { op: 'deactivate', nonce, machineFingerprint });
    }, {
      body: DeactivateBody,
      response: { 200: ActivationReply, ...errorsOf(400, 401, 403, 404, 413, 429) },
      detail: {
        tags,
        summary: 'Deactivate this machine',
        description:
          'Frees the slot of machineFingerprint (200 with the removed activation; no such activation: 404). At most the product’s deactivationsPer30Days (default 3) per license per rolling 30 days; past it 429 rate_limited with Retry-After (seconds until the next one is allowed) and a message pointing to the seller, who can remove machines at any time. A product with deactivationsPer30Days 0: 403 forbidden. Publishable or secret key.' + SIGNED_ANSWER_DOC,
        parameters: SIGNED_ANSWER_PARAMETERS,
        security: SECURITY.any,
      },
    })
    .post('/licenses/activations', async ({ caller, body, request }) => {
      const nonce = readNonce(request);
      const address = clientAddress(request, deps.settings.trustedProxyHeader);
      const list = await listHeldActivations(deps, caller.developerId, { licenseKey: body.licenseKey, clientAddress: address });
      return signedAnswer(sign, request, caller.developerId, publicList(list), { op: 'activations', nonce });
    }, {
      body: HeldActivationsBody,
      response: { 200: ActivationList, ...errorsOf(400, 401, 404, 413, 429) },
      detail: {
        tags,
        summary: 'This license’s machines (holder)',
        description:
          'The machines of the license whose key is sent, oldest first, with its maxMachines: what a client shows before the buyer deactivates one. An unknown key or another seller’s: 404 not_found. Counted like a validation. Publishable or secret key. The signed header carries no machineFingerprint (the request names none).' + SIGNED_ANSWER_DOC,
        parameters: SIGNED_ANSWER_PARAMETERS,
        security: SECURITY.any,
      },
    });

  const seller = withSecretKey(deps)
    .get('/licenses/:id/activations', async ({ caller, params }) => publicList(await listActivations(deps, caller.developerId, params.id)), {
      params: IdParams,
      response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404) },
      detail: { tags, summary: 'A license’s machines', description: 'Oldest first, with the license’s maxMachines. Another seller’s license: 404.', security: SECURITY.secret },
    })
    .delete('/licenses/:id/activations/:activationId', async ({ caller, params }) => publicList(await removeActivation(deps, caller.developerId, params.id, params.activationId)), {
      params: ActivationParams,
      response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404, 413) },
      detail: { tags, summary: 'Remove a machine', description: 'Frees its slot at once; not counted against the holder’s deactivation quota. Answers the machines left.', security: SECURITY.secret },
    })
    .patch('/licenses/:id', async ({ caller, params, body }) => publicList(await setLicenseMaxMachines(deps, caller.developerId, params.id, body.maxMachines)), {
      params: IdParams,
      body: LicenseChangesBody,
      response: { 200: ActivationList, ...errorsOf(400, 401, 403, 404, 413) },
      detail: {
        tags,
        summary: 'Change a license’s maxMachines',
        description: 'Only this license (the product’s maxMachines applies to licenses issued later). Lowered below the number of machines it has, every one of them keeps working; no new machine fits until enough are removed.',
        security: SECURITY.secret,
      },
    });

  return new Elysia({ name: 'activations' }).use(holder).use(seller);
}
