import { t } from 'elysia';
import { EMAIL_MAX_LENGTH } from '../../../domain/developer.ts';
import { confirmTrial, requestTrial } from '../../../app/trials/confirm-trial.ts';
import { startTrial, type StartedTrial as Started } from '../../../app/trials/start-trial.ts';
import { viewLicense } from '../../../domain/license.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withAnyApiKey } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { EXAMPLE, LICENSE_EXAMPLE } from '../examples.ts';
import { errorsOf, Id, Input, LicenseView } from '../schemas.ts';
import { ActivateBody, Activation, ACTIVATION_EXAMPLE, ValidateBody } from './licenses/schemas.ts';
import { idempotent, underKey, type Rebuild } from '../idempotency.ts';

const TrialBody = Input({
  productId: Id({ 'x-error': 'productId must be a product id (prod_…).' }),
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The buyer’s e-mail: one trial per e-mail per product.', 'x-error': `email must be an e-mail address (at most ${EMAIL_MAX_LENGTH} characters).` }),
  machineFingerprint: ValidateBody.properties.machineFingerprint,
  name: ActivateBody.properties.name,
}, {
  examples: [{ productId: EXAMPLE.productId, email: EXAMPLE.buyerEmail, machineFingerprint: EXAMPLE.machineFingerprint, name: 'ada-laptop' }],
});

const TrialLicense = t.Composite([LicenseView, t.Object({ trial: t.Boolean({ description: 'true: a free trial, converted in place when bought.' }) })]);

const StartedTrial = t.Object({
  license: TrialLicense,
  licenseKey: t.String({ description: 'Ed25519-signed compact JWS, like a sold license’s; its expiresAt is the trial’s end.' }),
  activation: Activation,
}, {
  examples: [{
    license: { ...LICENSE_EXAMPLE, expiresAt: EXAMPLE.time + 14 * 86_400_000, machineFingerprint: EXAMPLE.machineFingerprint, trial: true },
    licenseKey: EXAMPLE.licenseKey,
    activation: ACTIVATION_EXAMPLE,
  }],
});

const TrialRequested = t.Object({
  trialRequestId: t.String({ description: 'The request to confirm with the code (POST /trials/confirm).' }),
  expiresIn: t.Integer({ description: 'Seconds the code (and the request) stays usable.' }),
}, {
  examples: [{ trialRequestId: EXAMPLE.trialRequestId, expiresIn: 300 }],
});

const ConfirmBody = Input({
  trialRequestId: Id({ description: 'From POST /trials’s 202 answer.', 'x-error': 'trialRequestId must be a trial request id (trq_…).' }),
  otp: t.String({ maxLength: 16, description: 'The 6-digit code e-mailed to the address.', 'x-error': 'otp must be the code from the e-mail.' }),
}, {
  examples: [{ trialRequestId: EXAMPLE.trialRequestId, otp: EXAMPLE.otp }],
});

const tags = ['Trials'];

const TRIAL_RULES =
  'One trial per e-mail and one per machine for each product: a second is 409 trial_already_used with details.reason "email" or "machine" (a trial license activated later on another machine also claims that machine; a machine that had the product’s trial is refused there with the same code). A product without a trial: 409 trial_not_offered; an unknown, another seller’s or inactive product: 404 not_found. Buying the product (checkout or terminal purchase, same e-mail) converts the trial in place: same license id and machines, a fresh key with the paid terms, which online validation hands to the trial key’s holder as it does for a renewal.';

/** The trial as both ways of starting it answer it (201). */
function viewStarted(deps: Deps, { license, activation }: Started) {
  const { id, name, machineFingerprint, createdAt, lastSeenAt } = activation;
  return {
    license: { ...viewLicense(license, deps.clock.now()), trial: license.trial },
    licenseKey: license.licenseKey,
    activation: { id, name, machineFingerprint, createdAt, lastSeenAt },
  };
}

/**
 * A started trial's answer again, from the license a keyed request stored before its process died:
 * the trial's first machine is the one it started on.
 */
function trialAgain(deps: Deps): Rebuild {
  return {
    kind: 'license',
    status: 201,
    async answer(id, { caller }) {
      const license = await deps.licenses.findById(id);
      const [activation] = await deps.licenses.listActivations(id);
      if (!license || !activation || license.developerId !== caller?.developerId) return null;
      return viewStarted(deps, { license: { ...license, machineFingerprint: activation.machineFingerprint }, activation });
    },
  };
}

/**
 * POST /trials: called by the seller's application on the buyer's machine (publishable key: the
 * code is e-mailed first) or by the seller's server (secret key: the trial starts at once).
 * POST /trials/confirm: the code starts the requested trial.
 */
export function trialRoutes(deps: Deps) {
  return withAnyApiKey(deps)
    .post(
      '/trials',
      async ({ caller, body, request, set }) => {
        if (caller.scope === 'publishable') {
          const address = clientAddress(request, deps.settings.trustedProxyHeader);
          const { request: asked, expiresIn } = await requestTrial(deps, caller.developerId, { ...body, clientAddress: address });
          set.status = 202;
          return { trialRequestId: asked.id, expiresIn };
        }
        // A secret key is the seller's own server, which may start trials for all its users from one address.
        const started = await underKey(request, () => startTrial(deps, caller.developerId, { ...body, clientAddress: null }));
        set.status = 201;
        return viewStarted(deps, started);
      },
      {
        body: TrialBody,
        ...idempotent(deps, trialAgain(deps)),
        response: { 201: StartedTrial, 202: TrialRequested, ...errorsOf(400, 401, 404, 409, 413, 429, 502) },
        detail: {
          tags,
          summary: 'Start a free trial on this machine (a publishable key: after an e-mailed code)',
          description:
            'For a product with trialDays. With a publishable key (the application on the buyer’s machine) nothing starts yet: the product, its trial and the e-mail are checked, a 6-digit code is e-mailed to the address, and the answer is 202 {trialRequestId, expiresIn} with no key; POST /trials/confirm with the code starts the trial. Nobody can take another person’s trial, or start one for an address they cannot read. Codes mailed to one address: at most 3 per 15 minutes from one client address and 10 a day in all, then 429 rate_limited with Retry-After; 502 mail_failed when the mail could not be sent. With a secret key (the seller’s own server, which proved the address itself) the trial starts at once: 201 with the license, its key and this machine’s activation. The trial is a license with trial true, the product’s features and maxMachines, expiring trialDays after now, held by the customer with this e-mail (created if new), with this machine activated. ' +
            TRIAL_RULES +
            ' With a publishable key, at most 20 trials per client address per hour by default (TRIAL_RATE_LIMIT_PER_HOUR); past it 429 rate_limited with Retry-After.',
          security: SECURITY.any,
        },
      },
    )
    .post(
      '/trials/confirm',
      async ({ caller, body, set, request }) => {
        const address = clientAddress(request, deps.settings.trustedProxyHeader);
        const started = await underKey(request, () => confirmTrial(deps, caller.developerId, { ...body, clientAddress: address }));
        set.status = 201;
        return viewStarted(deps, started);
      },
      {
        body: ConfirmBody,
        ...idempotent(deps, trialAgain(deps)),
        response: { 201: StartedTrial, ...errorsOf(400, 401, 404, 409, 410, 413, 422, 429) },
        detail: {
          tags,
          summary: 'Confirm a requested trial with the e-mailed code',
          description:
            'The code e-mailed by POST /trials (publishable key) starts the trial: 201 with the same body a secret key’s POST /trials answers (license, licenseKey, activation). Any API key of the seller that took the request; another seller’s or an unknown request is 404 not_found. A wrong code is 422 otp_invalid (5 attempts per code, then 429 otp_attempts_exceeded; 20 wrong codes for one address lock its trial codes for an hour, 429 rate_limited); a request past its lifetime is 410 otp_expired (ask again with POST /trials). A request starts at most one trial: confirming it again is 409 conflict, also when confirmations race. ' +
            TRIAL_RULES,
          security: SECURITY.any,
        },
      },
    );
}
