import type { SigningKey } from '../../domain/developer.ts';
import type { Deps } from '../../ports/deps.ts';

export function newSigningKey(deps: Pick<Deps, 'clock' | 'ids' | 'signer'>, developerId: string): SigningKey {
  const { publicKey, sealedPrivateKey } = deps.signer.generate();
  return { kid: deps.ids.next('kid'), developerId, publicKey, sealedPrivateKey, createdAt: deps.clock.now(), active: true };
}
