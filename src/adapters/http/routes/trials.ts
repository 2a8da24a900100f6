import { t } from 'elysia';
import { EMAIL_MAX_LENGTH } from '../../../domain/developer.ts';
import { startTrial } from '../../../app/trials/start-trial.ts';
import { viewLicense } from '../../../domain/license.ts';
import type { Deps } from '../../../ports/deps.ts';
import { SECURITY, withAnyApiKey } from '../auth.ts';
import { clientAddress } from '../client-address.ts';
import { EXAMPLE, LICENSE_EXAMPLE } from '../examples.ts';
import { errorsOf, Id, Input, LicenseView } from '../schemas.ts';
import { ActivateBody, Activation, ACTIVATION_EXAMPLE, ValidateBody } from './licenses/schemas.ts';

const TrialBody = Input({
  productId: Id({ error: 'productId must be a product id (prod_…).' }),
  email: t.String({ maxLength: EMAIL_MAX_LENGTH, description: 'The buyer’s e-mail: one trial per e-mail per product.', error: `email must be an e-mail address (at most ${EMAIL_MAX_LENGTH} characters).` }),
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

const tags = ['Trials'];

/** POST /trials: called by the seller's application on the buyer's machine (publishable key) or by the seller's server. */
export function trialRoutes(deps: Deps) {
  return withAnyApiKey(deps).post(
    '/trials',
    async ({ caller, body, request, set }) => {
      // A secret key is the seller's own server, which may start trials for all its users from one address.
      const address = caller.scope === 'publishable' ? clientAddress(request, deps.settings.trustedProxyHeader) : null;
      const { license, activation } = await startTrial(deps, caller.developerId, { ...body, clientAddress: address });
      set.status = 201;
      const { id, name, machineFingerprint, createdAt, lastSeenAt } = activation;
      return {
        license: { ...viewLicense(license, deps.clock.now()), trial: license.trial },
        licenseKey: license.licenseKey,
        activation: { id, name, machineFingerprint, createdAt, lastSeenAt },
      };
    },
    {
      body: TrialBody,
      response: { 201: StartedTrial, ...errorsOf(400, 401, 404, 409, 413, 429) },
      detail: {
        tags,
        summary: 'Start a free trial on this machine',
        description:
          'For a product with trialDays: a license with trial true, the product’s features and maxMachines, expiring trialDays after now, held by the customer with this e-mail (created if new), with this machine activated. One trial per e-mail and one per machine for each product: a second is 409 trial_already_used with details.reason "email" or "machine" (a trial license activated later on another machine also claims that machine; a machine that had the product’s trial is refused there with the same code). A product without a trial: 409 trial_not_offered; an unknown, another seller’s or inactive product: 404 not_found. Buying the product (checkout or terminal purchase, same e-mail) converts the trial in place: same license id and machines, a fresh key with the paid terms. With a publishable key, at most 20 trials per client address per hour by default (TRIAL_RATE_LIMIT_PER_HOUR); past it 429 rate_limited with Retry-After.',
        security: SECURITY.any,
      },
    },
  );
}
