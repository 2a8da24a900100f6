import type { Deps } from '../../ports/deps.ts';
import { newSigningKey } from './new-signing-key.ts';

/** New licenses are signed with the new key; keys signed before keep verifying. */
export async function rotateSigningKey(
  deps: Pick<Deps, 'clock' | 'ids' | 'signer' | 'signingKeys'>,
  developerId: string,
): Promise<{ kid: string; publicKey: string }> {
  const key = newSigningKey(deps, developerId);
  await deps.signingKeys.rotate(key);
  return { kid: key.kid, publicKey: key.publicKey };
}
