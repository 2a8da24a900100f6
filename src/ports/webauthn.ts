/**
 * WebAuthn ceremonies (a library adapter): options to hand the browser, and the checks of what the
 * authenticator answered. Responses and options are the JSON the browser library speaks.
 */
export interface RelyingParty {
  /** The host name of PUBLIC_BASE_URL. */
  id: string;
  /** PUBLIC_BASE_URL's origin: the one the client data must name. */
  origin: string;
  name: string;
}

export interface NewCredential {
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

export interface WebAuthn {
  /** Options for navigator.credentials.create, with a fresh challenge (options.challenge). */
  registrationOptions(rp: RelyingParty, user: { id: string; name: string; displayName: string }, exclude: string[]): Promise<{ challenge: string; options: Record<string, unknown> }>;
  /** The new credential when the attestation is good for this challenge, RP and origin; null otherwise. */
  verifyRegistration(rp: RelyingParty, challenge: string, response: unknown): Promise<NewCredential | null>;
  /** Options for navigator.credentials.get with a fresh challenge, no credentials listed (discoverable). */
  authenticationOptions(rp: RelyingParty): Promise<{ challenge: string; options: Record<string, unknown> }>;
  /** The challenge a response's client data answers, or null when it carries none. */
  challengeOf(response: unknown): string | null;
  /** The credential id an assertion names, or null when the response is not an assertion at all. */
  credentialIdOf(response: unknown): string | null;
  /**
   * The counter the authenticator reports when the assertion is signed by this credential over this
   * challenge, RP and origin with the user present; null otherwise. The counter rule is the caller's.
   */
  verifyAuthentication(rp: RelyingParty, challenge: string, response: unknown, credential: { credentialId: string; publicKey: string; counter: number; transports: string[] }): Promise<{ counter: number } | null>;
}
