import { CONNECT_STATE_LIFETIME_MS } from '../../domain/connect.ts';
import { InvalidRequestError } from '../../domain/errors.ts';
import type { Deps } from '../../ports/deps.ts';

type ConnectDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'connections' | 'processor' | 'settings'>;

export const callbackUrl = (deps: Pick<Deps, 'settings'>) => `${deps.settings.apiBaseUrl}/connect/callback`;

/** The processor's authorize page, with a single-use state bound to this developer for 10 minutes. */
export async function startConnect(deps: ConnectDeps, developerId: string): Promise<{ url: string }> {
  const state = deps.ids.secret('st_');
  await deps.connections.saveState({
    stateHash: deps.hashing.hash(state),
    developerId,
    expiresAt: deps.clock.now() + CONNECT_STATE_LIFETIME_MS,
    usedAt: null,
  });
  return { url: deps.processor.authorizeUrl(state, callbackUrl(deps)) };
}

/** The OAuth callback: the state must be ours, unused and fresh; the code becomes the seller's account. */
export async function completeConnect(
  deps: ConnectDeps,
  input: { code?: string; state?: string; error?: string },
): Promise<{ developerId: string; accountId: string }> {
  if (!input.state) throw new InvalidRequestError('The callback has no state.', 'state', 'query');
  const now = deps.clock.now();
  const state = await deps.connections.useState(deps.hashing.hash(input.state), now);
  if (!state || now >= state.expiresAt) {
    throw new InvalidRequestError('This connection link is unknown, used or expired: start again from your dashboard or CLI.', 'state', 'query');
  }
  if (input.error || !input.code) throw new InvalidRequestError(`The connection was not authorized${input.error ? ` (${input.error})` : ''}.`, 'code', 'query');
  const { accountId } = await deps.processor.exchangeCode(input.code);
  await deps.connections.saveAccount({ developerId: state.developerId, accountId, connectedAt: now });
  return { developerId: state.developerId, accountId };
}

export async function connectStatus(deps: Pick<Deps, 'connections'>, developerId: string): Promise<{ connected: boolean; accountId?: string }> {
  const account = await deps.connections.accountOf(developerId);
  return account ? { connected: true, accountId: account.accountId } : { connected: false };
}
