import { parseLicenseKey } from '../domain/license-key.ts';
import { OTP_LIMITS } from '../domain/otp-challenge.ts';
import { ApiError } from './errors.ts';
import { networkError, type Answer, type Http } from './http.ts';
import type { MachineActivation } from './activations.ts';
import type { LicenseDetails } from './types.ts';

/** The code was e-mailed: what the application shows while it asks the buyer for it. */
export interface TrialCodeSent {
  /** Names the request to confirmTrial(). */
  trialRequestId: string;
  /** Seconds the code stays usable. */
  expiresIn: number;
  /** The address the code went to, as given. */
  email: string;
  /** 1 for the first ask; more after a wrong code. */
  attempt: number;
  /** Why it is asked again: the refusal of the previous code (otp_invalid). */
  previousError?: ApiError;
}

export interface StartTrialOptions {
  /** The product whose free trial to start (it must offer one: trialDays). */
  productId: string;
  /** The buyer's e-mail: one trial per e-mail and per machine for each product. A code is mailed there. */
  email: string;
  /** A human name for this machine, e.g. the host name. */
  name?: string | null;
  /**
   * Asks the buyer for the code mailed to `email` (a publishable key's trials start only with it).
   * Called again after a wrong code, up to 5 times in all; an empty answer gives up (ApiError otp_invalid).
   */
  code: (sent: TrialCodeSent) => Promise<string>;
}

export interface StartedTrial {
  licenseKey: string;
  /** trial true; expiresAt is the end of the trial. */
  license: LicenseDetails & { trial: boolean };
  /** This machine, activated by the trial. */
  activation: MachineActivation;
}

/** What the trial calls need from the client: the service, this machine, and where keys are kept. */
export interface TrialContext {
  http: Http;
  apiKey: string;
  fingerprint: string;
  storeKey(key: string, license: LicenseDetails): Promise<void>;
}

const unexpected = (status: number) => new ApiError(status, 'invalid_response', 'The licensing service answered the trial with something unexpected.');

function reached(answer: Answer): { status: number; body: unknown } {
  if (answer.kind === 'error') throw answer.error;
  if (answer.kind === 'unreachable') throw networkError(answer.cause);
  return answer;
}

/**
 * POST /trials for this machine. With a publishable key the service mails a code first (202): the
 * answer names the request to confirm. A trial the service starts at once (201, as it does for a
 * secret key, which the client itself refuses) is stored and returned as `started`.
 */
export async function requestTrial(ctx: TrialContext, options: Omit<StartTrialOptions, 'code'>): Promise<{ trialRequestId: string; expiresIn: number } | { started: StartedTrial }> {
  const { productId, email, name } = options;
  const answer = reached(
    await ctx.http.send('POST', '/trials', { apiKey: ctx.apiKey, body: { productId, email, machineFingerprint: ctx.fingerprint, ...(name == null ? {} : { name }) } }),
  );
  if (answer.status === 201) return { started: await keep(ctx, productId, answer) };
  const asked = answer.body as { trialRequestId?: unknown; expiresIn?: unknown } | undefined;
  if (answer.status !== 202 || typeof asked?.trialRequestId !== 'string' || typeof asked.expiresIn !== 'number') throw unexpected(answer.status);
  return { trialRequestId: asked.trialRequestId, expiresIn: asked.expiresIn };
}

/** POST /trials/confirm with the mailed code: the trial starts and its key is stored. */
export async function confirmTrial(ctx: TrialContext, input: { productId: string; trialRequestId: string; otp: string }): Promise<StartedTrial> {
  const answer = reached(await ctx.http.send('POST', '/trials/confirm', { apiKey: ctx.apiKey, body: { trialRequestId: input.trialRequestId, otp: input.otp } }));
  if (answer.status !== 201) throw unexpected(answer.status);
  return keep(ctx, input.productId, answer);
}

/**
 * The whole start: the request, then `options.code` until a code is right (at most
 * OTP_LIMITS.maxAttempts codes; a wrong one is asked again). The key is then stored as a bought one
 * is: check() verifies it like any other. A trial already used by this e-mail or machine is an
 * ApiError 409 `trial_already_used` (details.reason "email" or "machine"); a product without a
 * trial, 409 `trial_not_offered`; an expired code 410 `otp_expired`.
 */
export async function startTrial(ctx: TrialContext, options: StartTrialOptions): Promise<StartedTrial> {
  if (typeof options.code !== 'function') throw new TypeError('startTrial needs a code callback: the service e-mails the buyer a code that starts the trial (docs/client.md).');
  const asked = await requestTrial(ctx, options);
  if ('started' in asked) return asked.started;
  let previousError: ApiError | undefined;
  for (let attempt = 1; ; attempt++) {
    const otp = (await options.code({ ...asked, email: options.email, attempt, ...(previousError ? { previousError } : {}) })).trim();
    if (!otp) throw previousError ?? new ApiError(422, 'otp_invalid', 'No code was given.');
    try {
      return await confirmTrial(ctx, { productId: options.productId, trialRequestId: asked.trialRequestId, otp });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'otp_invalid' && attempt < OTP_LIMITS.maxAttempts)) throw error;
      previousError = error;
    }
  }
}

/** The key must be the license the answer describes, for the product asked: anything else is not stored. */
async function keep(ctx: TrialContext, productId: string, answer: { status: number; body: unknown }): Promise<StartedTrial> {
  const started = answer.body as StartedTrial | undefined;
  const parsed = typeof started?.licenseKey === 'string' ? parseLicenseKey(started.licenseKey) : null;
  if (!parsed?.ok || parsed.key.claims.id !== started!.license?.id || parsed.key.claims.productId !== productId) throw unexpected(answer.status);
  const { id, productId: product, features, status, issuedAt, expiresAt } = started!.license;
  await ctx.storeKey(started!.licenseKey, { id, productId: product, features, status, issuedAt, expiresAt });
  return started!;
}
