import { t } from 'elysia';
import { PASSKEY_LIMITS, SIGN_IN_METHODS } from '../../../domain/console-session.ts';
import { EMAIL_MAX_LENGTH } from '../../../domain/developer.ts';
import { EXAMPLE } from '../examples.ts';
import { Id, Input, Millis, MillisOrNull } from '../schemas.ts';
import { literalUnion } from '../vocabulary.ts';

/** The seller console's sign-in, sessions and passkeys: request and answer models. */
const SignInMethod = literalUnion(SIGN_IN_METHODS, { description: 'email: a code e-mailed to the account; passkey: a WebAuthn passkey.' });

export const ConsoleLoginBody = Input({ email: t.String({ maxLength: EMAIL_MAX_LENGTH }) }, { examples: [{ email: EXAMPLE.sellerEmail }] });

export const ConsoleLoginStarted = t.Object({
  loginId: t.String({ description: 'Names the code sent; give it back with the code.' }),
  expiresIn: t.Integer({ description: 'Seconds the code lives (300).' }),
}, { examples: [{ loginId: EXAMPLE.otpId, expiresIn: 300 }] });

export const ConsoleLoginVerifyBody = Input({
  loginId: Id(),
  code: t.String({ maxLength: 12, description: 'The 6 digits e-mailed.' }),
}, { examples: [{ loginId: EXAMPLE.otpId, code: EXAMPLE.otp }] });

export const SignedIn = t.Object({
  developer: t.Object({ id: t.String(), email: t.String(), name: t.String() }),
  session: t.Object({ id: t.String(), createdAt: Millis, expiresAt: Millis, how: SignInMethod }),
  csrfToken: t.String({ description: 'Send as X-CSRF-Token with every request this session authenticates.' }),
}, {
  description: 'Signed in. The session itself is the cookie __Host-licensing_console (HttpOnly; Secure; SameSite=Strict; Path=/), set with this answer.',
});

export const ConsoleSessionList = t.Object({
  data: t.Array(t.Object({
    id: t.String(),
    createdAt: Millis,
    lastUsedAt: Millis,
    expiresAt: Millis,
    how: SignInMethod,
    userAgent: t.String(),
    clientAddress: t.String(),
    current: t.Boolean({ description: 'The session this request came with (always false with a secret key).' }),
  })),
});

const Base64url = (maxLength: number) => t.String({ maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$' });

/** What @simplewebauthn/browser's startRegistration / startAuthentication give back (RegistrationResponseJSON / AuthenticationResponseJSON). */
const CredentialResponse = Input({
  id: Base64url(1400),
  rawId: Base64url(1400),
  type: t.Literal('public-key'),
  response: Input({
    clientDataJSON: Base64url(8192),
    attestationObject: t.Optional(Base64url(32768)),
    authenticatorData: t.Optional(Base64url(8192)),
    // Room for post-quantum signatures: @simplewebauthn/server offers ML-DSA-44 first where the
    // runtime has it (Bun does), and its signature is 2,420 bytes (3,227 characters here); ML-DSA-87's 4,627.
    signature: t.Optional(Base64url(8192)),
    userHandle: t.Optional(Base64url(512)),
    transports: t.Optional(t.Array(t.String({ maxLength: 32, pattern: '^[a-z-]*$' }), { maxItems: 10 })),
  }),
  clientExtensionResults: t.Optional(t.Record(t.String({ maxLength: 64 }), t.Unknown())),
  authenticatorAttachment: t.Optional(t.String({ maxLength: 32 })),
});

export const WebAuthnOptions = t.Record(t.String(), t.Unknown(), {
  description: 'PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON: hand it to @simplewebauthn/browser as optionsJSON.',
});

// The shape of a browser's answer (the values are made up: a real one comes from an authenticator).
const CLIENT_DATA = 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiLi4uIn0';
const CREDENTIAL_ID = 'Xq4Lm8Tz2Wk6Rb9Nc3Hv7Pd1Jf5Ys0Ga';

export const PasskeyRegisterBody = Input({
  response: CredentialResponse,
  name: t.Optional(t.String({ maxLength: PASSKEY_LIMITS.nameMax, pattern: '^[^\\u0000-\\u001f]*$', description: 'A name to tell passkeys apart (default "Passkey").' })),
}, {
  examples: [{
    response: { id: CREDENTIAL_ID, rawId: CREDENTIAL_ID, type: 'public-key', response: { clientDataJSON: CLIENT_DATA, attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] }, clientExtensionResults: {} },
    name: 'Laptop',
  }],
});

export const PasskeyView = t.Object({ id: t.String(), name: t.String(), createdAt: Millis, lastUsedAt: MillisOrNull() });
export const PasskeyList = t.Object({ data: t.Array(PasskeyView) });

export const PasskeySignInOptions = t.Object({ challengeId: t.String({ description: 'Give it back with the assertion: single use, 5 minutes.' }), options: WebAuthnOptions });

export const PasskeySignInBody = Input({ challengeId: Id(), response: CredentialResponse }, {
  examples: [{
    challengeId: EXAMPLE.webauthnChallengeId,
    response: { id: CREDENTIAL_ID, rawId: CREDENTIAL_ID, type: 'public-key', response: { clientDataJSON: CLIENT_DATA, authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4', signature: 'MEUCIQ', userHandle: 'ZGV2Xw' }, clientExtensionResults: {} },
  }],
});
