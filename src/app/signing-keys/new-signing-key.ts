import type { SigningKey } from '../../domain/developer.ts';
import type { Deps } from '../../ports/deps.ts';

/** A fresh key pair; a seller's first key signs at once and is endorsed by no one. */
export function newSigningKey(
  deps: Pick<Deps, 'clock' | 'ids' | 'signer'>,
  developerId: string,
  staged: { notBefore?: number; endorse?: (key: { kid: string; publicKey: string }) => string } = {},
): SigningKey {
  const { publicKey, sealedPrivateKey } = deps.signer.generate();
  const kid = deps.ids.next('kid');
  const createdAt = deps.clock.now();
  const endorsement = staged.endorse ? staged.endorse({ kid, publicKey }) : null;
  return { kid, developerId, publicKey, sealedPrivateKey, createdAt, active: true, notBefore: staged.notBefore ?? createdAt, endorsement, compromisedAt: null, retirement: null };
}
