import { beforeAll, describe, expect, test } from 'bun:test';
import { aBuyer, connectedSeller, countOf, instancesOf, useService } from './cluster.ts';

/** Two instances on one PostgreSQL schema: N slots are N, however the first activations are spread. */
describe('two instances on one database: N machines per license', () => {
  const service = useService(2);
  let seller: Awaited<ReturnType<typeof connectedSeller>>;
  let productId: string;
  const SLOTS = 4;

  beforeAll(async () => {
    seller = await connectedSeller(service.next());
    const product = await service.next()('POST', '/developers/products', { key: seller.apiKey, body: { name: 'Team', price: 9900, currency: 'usd', maxMachines: SLOTS } });
    expect(product.status).toBe(201);
    productId = product.body.id;
  });

  const grant = async () => {
    const reply = await service.next()('POST', '/developers/licenses', { key: seller.apiKey, body: { productId, email: aBuyer().email } });
    expect(reply.status).toBe(201);
    return reply.body as { license: { id: string }; licenseKey: string };
  };
  const machines = () => Array.from({ length: 3 * SLOTS }, (_, i) => `machine-${i}-${crypto.randomUUID()}`);

  test('3×N concurrent first validations with distinct machines across both instances: exactly N valid, the rest machine_mismatch', async () => {
    const { license, licenseKey } = await grant();
    const candidates = machines();

    const replies = await Promise.all(candidates.map((machineFingerprint) => service.next()('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey, machineFingerprint } })));

    expect(countOf(replies, (r) => r.status === 200 && r.body.valid === true)).toBe(SLOTS);
    expect(countOf(replies, (r) => r.body.valid === false && r.body.reason === 'machine_mismatch')).toBe(2 * SLOTS);
    for (const i of instancesOf(service)) {
      const list = await service.on(i)('GET', `/licenses/${license.id}/activations`, { key: seller.apiKey });
      expect({ instance: i, count: list.body.data.length }).toEqual({ instance: i, count: SLOTS });
    }
  });

  test('3×N concurrent POST /licenses/activate across both instances: exactly N created, the rest 409 activation_limit', async () => {
    const { license, licenseKey } = await grant();

    const replies = await Promise.all(machines().map((machineFingerprint) => service.next()('POST', '/licenses/activate', { key: seller.publishableKey, body: { licenseKey, machineFingerprint } })));

    expect(countOf(replies, (r) => r.status === 201)).toBe(SLOTS);
    expect(countOf(replies, (r) => r.status === 409 && r.body.error.code === 'activation_limit')).toBe(2 * SLOTS);
    const list = await service.next()('GET', `/licenses/${license.id}/activations`, { key: seller.apiKey });
    expect(list.body.data).toHaveLength(SLOTS);
  });
});
