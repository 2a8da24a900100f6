import {
  CONSOLE_SESSION_LIMITS,
  CONSOLE_SESSION_PREFIX,
  sessionUsable,
  type ConsoleSession,
  type SignInMethod,
} from '../../domain/console-session.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';

type SessionDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'otpCodes' | 'developers' | 'consoleSessions'>;

/** Where a sign-in came from: shown in the list of sessions. */
export interface SignInContext {
  userAgent: string;
  clientAddress: string;
}

/** What sign-in and GET /developers/console/session answer (the cookie carries the token). */
export interface SignedInView {
  developer: { id: string; email: string; name: string };
  session: { id: string; createdAt: number; expiresAt: number; how: SignInMethod };
  csrfToken: string;
}

export interface ConsoleCaller {
  developerId: string;
  sessionId: string;
}

/**
 * The session's CSRF token: an HMAC of its token under the server's key. Each session has its own,
 * nothing more is stored, and a reloaded page gets it again from the cookie it already holds.
 */
const csrfOf = (deps: Pick<Deps, 'otpCodes'>, token: string) => deps.otpCodes.digest('console-csrf', token);

/** A new session for a sign-in that proved the mailbox or a passkey: always a fresh token, never the client's. */
export async function openSession(
  deps: SessionDeps,
  developerId: string,
  how: SignInMethod,
  context: SignInContext,
): Promise<{ token: string; view: SignedInView }> {
  const now = deps.clock.now();
  const token = deps.ids.secret(CONSOLE_SESSION_PREFIX);
  const session: ConsoleSession = {
    id: deps.ids.next('csn'),
    developerId,
    tokenHash: deps.hashing.hash(token),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: now + CONSOLE_SESSION_LIMITS.lifetimeMs,
    revokedAt: null,
    userAgent: context.userAgent.slice(0, CONSOLE_SESSION_LIMITS.userAgentMax),
    clientAddress: context.clientAddress,
    how,
  };
  await deps.consoleSessions.create(session);
  return { token, view: await viewOf(deps, session, token) };
}

async function viewOf(deps: SessionDeps, session: ConsoleSession, token: string): Promise<SignedInView> {
  const developer = await deps.developers.findById(session.developerId);
  if (!developer) throw new UnauthorizedError('The console session is not valid.');
  return {
    developer: { id: developer.id, email: developer.email, name: developer.name },
    session: { id: session.id, createdAt: session.createdAt, expiresAt: session.expiresAt, how: session.how },
    csrfToken: csrfOf(deps, token),
  };
}

/**
 * Who holds this session cookie. `csrf` is the X-CSRF-Token header: required (403 when missing or
 * wrong) unless `csrf` is `false` (reading the session itself, which changes nothing). A use is
 * recorded at most once a minute: the idle limit counts from it.
 */
export async function authenticateSession(deps: SessionDeps, token: string, csrf: string | null | false): Promise<ConsoleCaller & { session: ConsoleSession }> {
  if (!token.startsWith(CONSOLE_SESSION_PREFIX) || token.length > 200) throw new UnauthorizedError('The console session is not valid.');
  const tokenHash = deps.hashing.hash(token);
  const session = await deps.consoleSessions.findByHash(tokenHash);
  const now = deps.clock.now();
  if (!session || !deps.hashing.equal(session.tokenHash, tokenHash) || !sessionUsable(session, now)) {
    throw new UnauthorizedError('The console session has expired or was signed out: sign in again.');
  }
  if (csrf !== false && (!csrf || !deps.otpCodes.equal(csrf, csrfOf(deps, token)))) {
    throw new ForbiddenError('A console session needs its X-CSRF-Token header.');
  }
  await deps.consoleSessions.touch(session.id, now, now - CONSOLE_SESSION_LIMITS.touchEveryMs);
  return { developerId: session.developerId, sessionId: session.id, session };
}

/** GET /developers/console/session: the signed-in view again (the CSRF token for a reloaded page). */
export async function currentSession(deps: SessionDeps, token: string): Promise<SignedInView> {
  const { session } = await authenticateSession(deps, token, false);
  return viewOf(deps, session, token);
}

export interface SessionListItem {
  id: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  how: SignInMethod;
  userAgent: string;
  clientAddress: string;
  current: boolean;
}

export async function listSessions(deps: Pick<Deps, 'clock' | 'consoleSessions'>, caller: { developerId: string; sessionId?: string }): Promise<SessionListItem[]> {
  const sessions = await deps.consoleSessions.listLive(caller.developerId, deps.clock.now(), CONSOLE_SESSION_LIMITS.idleMs);
  return sessions.map((s) => ({
    id: s.id,
    createdAt: s.createdAt,
    lastUsedAt: s.lastUsedAt,
    expiresAt: s.expiresAt,
    how: s.how,
    userAgent: s.userAgent,
    clientAddress: s.clientAddress,
    current: s.id === caller.sessionId,
  }));
}

/** Another seller's session, or an unknown id, is 404: sessions are per seller. */
export async function revokeSession(deps: Pick<Deps, 'clock' | 'consoleSessions'>, developerId: string, id: string): Promise<void> {
  if (!(await deps.consoleSessions.revoke(developerId, id, deps.clock.now()))) throw new NotFoundError('console session');
}

/** "Sign out everywhere": every session of the seller, the caller's own included. */
export async function revokeAllSessions(deps: Pick<Deps, 'clock' | 'consoleSessions'>, developerId: string): Promise<void> {
  await deps.consoleSessions.revokeAll(developerId, deps.clock.now());
}
