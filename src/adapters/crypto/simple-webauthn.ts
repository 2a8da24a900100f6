import type { AuthenticationResponseJSON, RegistrationResponseJSON, WebAuthnCredential } from '@simplewebauthn/server';
import type { NewCredential, RelyingParty, WebAuthn } from '../../ports/webauthn.ts';

/**
 * The library is loaded at the first ceremony, not at start: its parsers weigh about 20 MB of
 * memory that an instance no seller signs in to by passkey never needs.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthnLibrary = () => (library ??= import('@simplewebauthn/server'));

const toBase64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/** What both checks hold an answer to: this challenge, this service's RP id and origin; the user verified (a PIN or biometric: a passkey alone signs in). */
const expected = (rp: RelyingParty, challenge: string) => ({ expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });

/** The library throws on what it refuses (a malformed answer too): one refusal, null, for all. */
async function nullWhenRefused<T>(check: () => Promise<T | null>): Promise<T | null> {
  try {
    return await check();
  } catch {
    return null;
  }
}

/**
 * WebAuthn through @simplewebauthn/server: attestation `none` (no device is trusted more than
 * another), user verification required (the passkey is the only factor), discoverable credentials for sign-in. Whatever the library
 * refuses (a bad signature, another origin or RP, a challenge that differs, a malformed response)
 * comes back as null: the caller answers one refusal for all.
 */
export const simpleWebAuthn: WebAuthn = {
  async registrationOptions(rp, user, exclude) {
    const options = await (await webauthnLibrary()).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.name,
      userDisplayName: user.displayName,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: exclude.map((id) => ({ id })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { challenge: options.challenge, options: { ...options } };
  },

  verifyRegistration(rp, challenge, response): Promise<NewCredential | null> {
    return nullWhenRefused(async () => {
      const result = await (await webauthnLibrary()).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        ...expected(rp, challenge),
      });
      if (!result.verified) return null;
      const { credential } = result.registrationInfo;
      return { credentialId: credential.id, publicKey: toBase64url(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] };
    });
  },

  async authenticationOptions(rp) {
    const options = await (await webauthnLibrary()).generateAuthenticationOptions({ rpID: rp.id, allowCredentials: [], userVerification: 'required' });
    return { challenge: options.challenge, options: { ...options } };
  },

  challengeOf(response) {
    const clientData = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
    if (typeof clientData !== 'string') return null;
    try {
      const challenge = (JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
      return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
    } catch {
      return null;
    }
  },

  credentialIdOf(response) {
    const id = (response as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id.length > 0 ? id : null;
  },

  verifyAuthentication(rp, challenge, response, credential) {
    return nullWhenRefused(async () => {
      const result = await (await webauthnLibrary()).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        ...expected(rp, challenge),
        credential: {
          id: credential.credentialId,
          publicKey: fromBase64url(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports as WebAuthnCredential['transports'],
        },
      });
      return result.verified ? { counter: result.authenticationInfo.newCounter } : null;
    });
  },
};
