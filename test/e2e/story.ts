import type { Call, Reply } from './support.ts';

export const MACHINE_A = 'a'.repeat(64);
export const MACHINE_B = 'b'.repeat(64);

export interface Story {
  developer: { id: string; apiKey: string; publishableKey: string };
  licenseKey: string;
  licenseId: string;
  productId: string;
  steps: {
    signup: Reply;
    product: Reply;
    grant: Reply;
    firstOnA: Reply;
    thenOnB: Reply;
    unbind: Reply;
    rebindOnB: Reply;
    revoke: Reply;
    afterRevoke: Reply;
  };
}

/**
 * The whole license lifecycle through the public API, step by step; each step's reply is kept so
 * the tests can assert on it (and on what the process logged meanwhile).
 */
export async function licenseStory(call: Call, email = `seller-${crypto.randomUUID()}@example.com`): Promise<Story> {
  const signup = await call('POST', '/developers/signup', { body: { email, name: 'Story Seller' } });
  const { id, apiKey, publishableKey } = signup.body;
  const product = await call('POST', '/developers/products', {
    key: apiKey,
    body: { name: 'Story Pro', price: 4900, currency: 'eur', features: ['pro', 'export'] },
  });
  const grant = await call('POST', '/developers/licenses', {
    key: apiKey,
    body: { productId: product.body.id, email: 'buyer@example.com' },
  });
  const licenseKey: string = grant.body.licenseKey;
  const licenseId: string = grant.body.license?.id;
  const validate = (machineFingerprint: string) =>
    call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey, machineFingerprint } });

  const firstOnA = await validate(MACHINE_A);
  const thenOnB = await validate(MACHINE_B);
  const unbind = await call('POST', `/licenses/${licenseId}/unbind`, { bearer: apiKey });
  const rebindOnB = await validate(MACHINE_B);
  const revoke = await call('POST', `/licenses/${licenseId}/revoke`, { key: apiKey });
  const afterRevoke = await validate(MACHINE_B);

  return {
    developer: { id, apiKey, publishableKey },
    licenseKey,
    licenseId,
    productId: product.body.id,
    steps: { signup, product, grant, firstOnA, thenOnB, unbind, rebindOnB, revoke, afterRevoke },
  };
}
