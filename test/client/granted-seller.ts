import type { Call } from '../browser/service.ts';
import type { Jwks } from '../../src/client/index.ts';

export interface GrantedSeller {
  developerId: string;
  apiKey: string;
  publishableKey: string;
  productId: string;
  licenseId: string;
  licenseKey: string;
  jwks: Jwks;
}

/** A seller set up over the HTTP API alone (no Connect): signup, a product, a license granted by hand, the JWKS. */
export async function grantedSeller(call: Call): Promise<GrantedSeller> {
  const signup = await call('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Acme Tools' } });
  if (signup.status !== 201) throw new Error(`signup: ${JSON.stringify(signup.body)}`);
  const { id: developerId, apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', { key: apiKey, body: { name: 'Acme Editor Pro', price: 1999, currency: 'usd', features: ['pro', 'export'] } });
  if (product.status !== 201) throw new Error(`product: ${JSON.stringify(product.body)}`);
  const grant = await call('POST', '/developers/licenses', { key: apiKey, body: { productId: product.body.id, email: 'buyer@example.com' } });
  if (grant.status !== 201) throw new Error(`grant: ${JSON.stringify(grant.body)}`);
  const jwks = await call('GET', `/developers/${developerId}/jwks.json`);
  if (jwks.status !== 200) throw new Error(`jwks: ${JSON.stringify(jwks.body)}`);
  return { developerId, apiKey, publishableKey, productId: product.body.id, licenseId: grant.body.license.id, licenseKey: grant.body.licenseKey, jwks: jwks.body };
}
