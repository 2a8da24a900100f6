/**
 * The seller console's sign-in as tests drive it: a code mailed to the seller (sandbox mail), the
 * cookie its answer sets, the CSRF token in its body, and passkeys through a software authenticator.
 */
import { expect } from 'bun:test';
import { CONSOLE_COOKIE } from '../../src/domain/console-session.ts';
import { TEST_ISSUER } from './deps.ts';
import type { Reply, TestApi } from './http.ts';
import { mailedCode } from './sign-in.ts';
import type { SoftwareAuthenticator } from './webauthn-authenticator.ts';

/** The origin the test servers' PUBLIC_BASE_URL names: the only one the console accepts. */
export const CONSOLE_ORIGIN = new URL(TEST_ISSUER).origin;

export interface ConsoleLogin {
  token: string;
  csrf: string;
  sessionId: string;
  developerId: string;
  /** The cookie and the CSRF header, as the console's fetch wrapper sends them. */
  headers: Record<string, string>;
}

/** The session token a sign-in answer's Set-Cookie carries. */
export function cookieToken(reply: Reply): string {
  const cookie = reply.headers.get('set-cookie') ?? '';
  const token = new RegExp(`^${CONSOLE_COOKIE}=([^;]*)`).exec(cookie)?.[1];
  if (!token) throw new Error(`no console cookie in ${JSON.stringify(cookie)}: ${JSON.stringify(reply.body)}`);
  return token;
}

export const consoleHeaders = (token: string, csrf: string): Record<string, string> => ({ cookie: `${CONSOLE_COOKIE}=${token}`, 'x-csrf-token': csrf });

/** A successful sign-in's answer, as the console keeps it. */
export function loggedIn(reply: Reply): ConsoleLogin {
  expect(reply.status).toBe(200);
  const token = cookieToken(reply);
  const csrf = reply.body.csrfToken as string;
  return { token, csrf, sessionId: reply.body.session.id, developerId: reply.body.developer.id, headers: consoleHeaders(token, csrf) };
}

type Call = TestApi['call'];

/** Asks for a code and reads it from the seller's mail: the login id and the code. */
export async function consoleCode(call: Call, email: string, headers: Record<string, string> = {}): Promise<{ loginId: string; code: string }> {
  const started = await call('POST', '/developers/login', { body: { email }, headers });
  expect(started.status).toBe(202);
  return { loginId: started.body.loginId, code: await mailedCode(call, email) };
}

/** Signs in by e-mailed code. */
export async function consoleSignIn(call: Call, email: string, headers: Record<string, string> = {}): Promise<ConsoleLogin> {
  const { loginId, code } = await consoleCode(call, email, headers);
  return loggedIn(await call('POST', '/developers/login/verify', { body: { loginId, code }, headers }));
}

/** Registers the authenticator's passkey from a signed-in session; the answer of registration/verify. */
export async function registerPasskey(call: Call, login: ConsoleLogin, authenticator: SoftwareAuthenticator, name?: string): Promise<Reply> {
  const options = await call('POST', '/developers/passkeys/registration/options', { headers: login.headers });
  expect(options.status).toBe(200);
  const response = await authenticator.register(options.body, CONSOLE_ORIGIN);
  return call('POST', '/developers/passkeys/registration/verify', { headers: login.headers, body: { response, ...(name ? { name } : {}) } });
}

/** A passkey sign-in's challenge: its id and the options the browser would get. */
export async function passkeyChallenge(call: Call): Promise<{ challengeId: string; options: { challenge: string; rpId?: string } }> {
  const reply = await call('POST', '/developers/login/passkey/options');
  expect(reply.status).toBe(200);
  return reply.body;
}

/** Signs in with the authenticator's passkey; `change` alters the assertion (see SoftwareAuthenticator.assert). */
export async function passkeySignIn(call: Call, authenticator: SoftwareAuthenticator, change: Parameters<SoftwareAuthenticator['assert']>[2] = {}): Promise<Reply> {
  const { challengeId, options } = await passkeyChallenge(call);
  const response = await authenticator.assert(options, CONSOLE_ORIGIN, change);
  return call('POST', '/developers/login/passkey/verify', { body: { challengeId, response } });
}
