import type { HolderCall } from '../../../../app/licenses/activations.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { clientAddress } from '../../client-address.ts';
import { scopeOf } from './schemas.ts';

/** A license key holder's call as the use cases take it: the caller's seller, the client's address, the products the application named. */
export function holderCall(deps: Pick<Deps, 'settings'>, developerId: string, request: Request, productId: string | string[] | undefined): HolderCall {
  return { developerId, clientAddress: clientAddress(request, deps.settings.trustedProxyHeader), productIds: scopeOf(productId) };
}
