import { counterAccepted, PASSKEY_LIMITS, type ChallengePurpose, type Passkey } from '../../domain/console-session.ts';
import { ConflictError, ForbiddenError, InvalidRequestError, NotFoundError, UnauthorizedError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';
import type { RelyingParty } from '../../ports/webauthn.ts';
import { hitOrRefuse } from '../limits/address-limits.ts';
import { openSession, type SignInContext, type SignedInView } from './sessions.ts';

type PasskeyDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'otpCodes' | 'developers' | 'consoleSessions' | 'passkeys' | 'webAuthn' | 'settings' | 'rateLimiter'>;

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

const view = ({ id, name, createdAt, lastUsedAt }: Passkey): PasskeyView => ({ id, name, createdAt, lastUsedAt });

/** The relying party is the service at PUBLIC_BASE_URL: its host name is the RP id, its origin the only one accepted. */
export function relyingParty(settings: Deps['settings']): RelyingParty {
  const base = new URL(settings.issuer);
  return { id: base.hostname, origin: base.origin, name: 'Licensing console' };
}

async function newChallenge(deps: PasskeyDeps, purpose: ChallengePurpose, developerId: string | null, challenge: string): Promise<string> {
  const now = deps.clock.now();
  const id = deps.ids.next('wch');
  await deps.passkeys.createChallenge({ id, purpose, developerId, challenge, createdAt: now, expiresAt: now + PASSKEY_LIMITS.challengeLifetimeMs, usedAt: null });
  return id;
}

/** Only a signed-in seller adds a passkey: a console session, not a secret key (a key on a server has no authenticator). */
function requireSession(caller: { sessionId?: string }): void {
  if (!caller.sessionId) throw new ForbiddenError('A passkey is added from a signed-in console session.');
}

export async function passkeyRegistrationOptions(deps: PasskeyDeps, caller: { developerId: string; sessionId?: string }): Promise<Record<string, unknown>> {
  requireSession(caller);
  const developer = await deps.developers.findById(caller.developerId);
  if (!developer) throw new UnauthorizedError('The console session is not valid.');
  const existing = await deps.passkeys.listActive(developer.id);
  if (existing.length >= PASSKEY_LIMITS.perDeveloper) throw tooMany();
  // Each ceremony writes a challenge row: a script in a session cannot make them without end.
  await hitOrRefuse(deps, `passkey-registration:developer:${developer.id}`, PASSKEY_LIMITS.registrationsPerHour, 3_600_000, (limit, seconds) =>
    `At most ${limit} passkey registrations started an hour. Try again in ${seconds} seconds.`,
  );
  const { challenge, options } = await deps.webAuthn.registrationOptions(
    relyingParty(deps.settings),
    { id: developer.id, name: developer.email, displayName: developer.name },
    existing.map((p) => p.credentialId),
  );
  await newChallenge(deps, 'registration', developer.id, challenge);
  return options;
}

const tooMany = () => new ConflictError('conflict', `At most ${PASSKEY_LIMITS.perDeveloper} passkeys: revoke one first.`);

const REGISTRATION_FAILED = () => new InvalidRequestError('The passkey could not be registered: start again.');

/** The attestation must answer one of this seller's live registration challenges, used once, from this service's origin. */
export async function registerPasskey(deps: PasskeyDeps, caller: { developerId: string; sessionId?: string }, input: { response: unknown; name?: string }): Promise<PasskeyView> {
  requireSession(caller);
  const now = deps.clock.now();
  const value = deps.webAuthn.challengeOf(input.response);
  if (!value) throw REGISTRATION_FAILED();
  const challenge = await deps.passkeys.takeChallenge('registration', { challenge: value, developerId: caller.developerId }, now);
  if (!challenge) throw REGISTRATION_FAILED();
  const credential = await deps.webAuthn.verifyRegistration(relyingParty(deps.settings), challenge.challenge, input.response);
  if (!credential) throw REGISTRATION_FAILED();
  const taken = () => new ConflictError('conflict', 'This passkey is registered already.');
  if (await deps.passkeys.findByCredentialId(credential.credentialId)) throw taken();
  const passkey: Passkey = {
    id: deps.ids.next('psk'),
    developerId: caller.developerId,
    ...credential,
    name: input.name?.trim() || 'Passkey',
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  try {
    // The options' count was a courtesy: this is the cap, held by the store.
    if (!(await deps.passkeys.add(passkey, PASSKEY_LIMITS.perDeveloper))) throw tooMany();
  } catch (error) {
    if (error instanceof ConflictError) throw error;
    // Registered at the same moment through another challenge: the store's unique credential id decided.
    if (await deps.passkeys.findByCredentialId(credential.credentialId)) throw taken();
    throw error;
  }
  return view(passkey);
}

export async function listPasskeys(deps: Pick<Deps, 'passkeys'>, developerId: string): Promise<PasskeyView[]> {
  return (await deps.passkeys.listActive(developerId)).map(view);
}

export async function revokePasskey(deps: Pick<Deps, 'clock' | 'passkeys'>, developerId: string, id: string): Promise<void> {
  if (!(await deps.passkeys.revoke(developerId, id, deps.clock.now()))) throw new NotFoundError('passkey');
}

/** Sign-in options: a fresh challenge, no credential listed (the authenticator offers its own passkeys). */
export async function passkeySignInOptions(deps: PasskeyDeps): Promise<{ challengeId: string; options: Record<string, unknown> }> {
  const { challenge, options } = await deps.webAuthn.authenticationOptions(relyingParty(deps.settings));
  return { challengeId: await newChallenge(deps, 'authentication', null, challenge), options };
}

const SIGN_IN_FAILED = () => new UnauthorizedError('The passkey sign-in could not be verified: start again.');

/**
 * The challenge is used up first (a failed try burns it: no second guess at one challenge), then the
 * assertion must be signed by a registered, unrevoked passkey, and its counter must go up; the
 * counter moves by compare-and-set, so one assertion signs in once.
 */
export async function signInWithPasskey(
  deps: PasskeyDeps,
  input: { challengeId: string; response: unknown } & SignInContext,
): Promise<{ token: string; view: SignedInView }> {
  const now = deps.clock.now();
  const challenge = await deps.passkeys.takeChallenge('authentication', { id: input.challengeId }, now);
  if (!challenge) throw SIGN_IN_FAILED();
  const credentialId = deps.webAuthn.credentialIdOf(input.response);
  const passkey = credentialId ? await deps.passkeys.findByCredentialId(credentialId) : null;
  if (!passkey || passkey.revokedAt !== null) throw SIGN_IN_FAILED();
  const verified = await deps.webAuthn.verifyAuthentication(relyingParty(deps.settings), challenge.challenge, input.response, passkey);
  if (!verified || !counterAccepted(passkey.counter, verified.counter)) throw SIGN_IN_FAILED();
  if (!(await deps.passkeys.recordUse(passkey.id, passkey.counter, verified.counter, now))) throw SIGN_IN_FAILED();
  return openSession(deps, passkey.developerId, 'passkey', input);
}
