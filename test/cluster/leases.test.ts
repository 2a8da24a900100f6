import { beforeAll, describe, expect, test } from 'bun:test';
import { aBuyer, countOf, instancesOf, useService } from './cluster.ts';

/** Two instances (real server processes) on one PostgreSQL schema: maxLeases is maxLeases, however checkouts are spread. */
describe('two instances on one database: floating leases', () => {
  const service = useService(2);
  let seller: { apiKey: string; publishableKey: string };
  let productId: string;
  const SEATS = 3;

  beforeAll(async () => {
    const signup = await service.next()('POST', '/developers/signup', { body: { email: `seller-${crypto.randomUUID()}@example.com`, name: 'Seller' } });
    seller = signup.body;
    const product = await service.next()('POST', '/developers/products', { key: seller.apiKey, body: { name: 'CI seats', price: 9900, currency: 'usd', maxLeases: SEATS } });
    expect(product.status).toBe(201);
    productId = product.body.id;
  });

  const grant = async () => {
    const reply = await service.next()('POST', '/developers/licenses', { key: seller.apiKey, body: { productId, email: aBuyer().email, notify: false } });
    expect(reply.status).toBe(201);
    return reply.body as { license: { id: string }; licenseKey: string };
  };
  const checkout = (licenseKey: string, machineFingerprint: string) =>
    service.next()('POST', '/licenses/leases', { key: seller.publishableKey, body: { licenseKey, machineFingerprint, productId } });

  test('12 concurrent checkouts across both instances: exactly 3 leases, the rest 409 lease_limit', async () => {
    const { license, licenseKey } = await grant();

    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => checkout(licenseKey, `runner-${i}`)));

    expect(countOf(replies, (r) => r.status === 201)).toBe(SEATS);
    expect(countOf(replies, (r) => r.status === 409 && r.body.error.code === 'lease_limit')).toBe(12 - SEATS);
    for (const i of instancesOf(service)) {
      const listed = await service.on(i)('GET', `/licenses/${license.id}/leases`, { key: seller.apiKey });
      expect({ instance: i, live: listed.body.live.length }).toEqual({ instance: i, live: SEATS });
    }
  });

  test('8 concurrent checkouts from one fingerprint across both instances: one lease, no 409', async () => {
    const { licenseKey } = await grant();

    const replies = await Promise.all(Array.from({ length: 8 }, () => checkout(licenseKey, 'one-runner')));

    expect(countOf(replies, (r) => r.status === 409)).toBe(0);
    expect(countOf(replies, (r) => r.status === 201)).toBe(1);
    expect(new Set(replies.map((r) => r.body.lease.id)).size).toBe(1);
  });

  test('a released seat is free on the other instance at once', async () => {
    const { licenseKey } = await grant();
    const held = await Promise.all(['a', 'b', 'c'].map((fp) => service.on(0)('POST', '/licenses/leases', { key: seller.publishableKey, body: { licenseKey, machineFingerprint: fp } })));
    expect((await service.on(1)('POST', '/licenses/leases', { key: seller.publishableKey, body: { licenseKey, machineFingerprint: 'd' } })).status).toBe(409);
    await service.on(1)('POST', `/licenses/leases/${held[0]!.body.lease.id}/release`, { key: seller.publishableKey, body: { licenseKey } });
    expect((await service.on(0)('POST', '/licenses/leases', { key: seller.publishableKey, body: { licenseKey, machineFingerprint: 'd' } })).status).toBe(201);
  });
});
