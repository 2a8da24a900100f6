import { parseLicenseKey } from '../domain/license-key.ts';
import { ApiError } from './errors.ts';
import { networkError, type Http } from './http.ts';
import type { MachineActivation } from './activations.ts';
import type { LicenseDetails } from './types.ts';

export interface StartTrialOptions {
  /** The product whose free trial to start (it must offer one: trialDays). */
  productId: string;
  /** The buyer's e-mail: one trial per e-mail and per machine for each product. */
  email: string;
  /** A human name for this machine, e.g. the host name. */
  name?: string | null;
}

export interface StartedTrial {
  licenseKey: string;
  /** trial true; expiresAt is the end of the trial. */
  license: LicenseDetails & { trial: boolean };
  /** This machine, activated by the trial. */
  activation: MachineActivation;
}

/** What startTrial needs from the client: the service, this machine, and where keys are kept. */
export interface TrialContext {
  http: Http;
  apiKey: string;
  fingerprint: string;
  storeKey(key: string, license: LicenseDetails): Promise<void>;
}

/**
 * POST /trials for this machine, then the key is stored as a bought one is: check() verifies it like
 * any other. A trial already used by this e-mail or machine is an ApiError 409 `trial_already_used`
 * (details.reason "email" or "machine"); a product without a trial, 409 `trial_not_offered`.
 */
export async function startTrial(ctx: TrialContext, options: StartTrialOptions): Promise<StartedTrial> {
  const { productId, email, name } = options;
  const answer = await ctx.http.send('POST', '/trials', {
    apiKey: ctx.apiKey,
    body: { productId, email, machineFingerprint: ctx.fingerprint, ...(name == null ? {} : { name }) },
  });
  if (answer.kind === 'error') throw answer.error;
  if (answer.kind === 'unreachable') throw networkError(answer.cause);
  const started = answer.body as StartedTrial | undefined;
  const parsed = typeof started?.licenseKey === 'string' ? parseLicenseKey(started.licenseKey) : null;
  // The key must be the license the answer describes, for the product asked: anything else is not stored.
  if (!parsed?.ok || parsed.key.claims.id !== started!.license?.id || parsed.key.claims.productId !== productId) {
    throw new ApiError(answer.status, 'invalid_response', 'The licensing service answered the trial with something unexpected.');
  }
  const { id, productId: product, features, status, issuedAt, expiresAt } = started!.license;
  await ctx.storeKey(started!.licenseKey, { id, productId: product, features, status, issuedAt, expiresAt });
  return started!;
}
