import { UnauthorizedError } from '../../domain/errors.ts';
import { IDENTITY_TOKEN_PREFIX, tokenUsable } from '../../domain/identity-token.ts';
import type { Deps } from '../../ports/deps.ts';

export interface CustomerCaller {
  customerId: string;
  tokenHash: string;
}

/**
 * Who holds this identity token. The client must say which device it is on
 * (X-Device-Fingerprint), and it must be the device the token was issued to: a token copied off
 * its machine, sent without the header or with another device's, opens nothing.
 */
export async function authenticateCustomer(
  deps: Pick<Deps, 'clock' | 'hashing' | 'identityTokens'>,
  token: string | null,
  deviceFingerprint: string | null,
): Promise<CustomerCaller> {
  if (!token) throw new UnauthorizedError('An identity token is required (Authorization: Bearer …).');
  if (!token.startsWith(IDENTITY_TOKEN_PREFIX) || token.length > 200) throw new UnauthorizedError('The identity token is not valid.');
  const tokenHash = deps.hashing.hash(token);
  const stored = await deps.identityTokens.findByHash(tokenHash);
  if (!stored || !deps.hashing.equal(stored.tokenHash, tokenHash) || !tokenUsable(stored, deps.clock.now())) {
    throw new UnauthorizedError('The identity token is not valid, has expired, or was logged out.');
  }
  if (deviceFingerprint === null || deviceFingerprint === '') {
    throw new UnauthorizedError('An identity token works only with the X-Device-Fingerprint of the device it was issued to.');
  }
  // Compared as digests, in constant time: the fingerprint is the token's second half.
  if (!deps.hashing.equal(deps.hashing.hash(deviceFingerprint), deps.hashing.hash(stored.deviceFingerprint))) {
    throw new UnauthorizedError('This identity token belongs to another device.');
  }
  return { customerId: stored.customerId, tokenHash };
}

export async function logout(deps: Pick<Deps, 'clock' | 'identityTokens'>, caller: CustomerCaller): Promise<void> {
  await deps.identityTokens.revoke(caller.tokenHash, deps.clock.now());
}
