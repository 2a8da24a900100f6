import { beforeAll, describe, expect, test } from 'bun:test';
import { aBuyer, connectedSeller, countOf, instancesOf, licensesOf, useService, type Reply } from './cluster.ts';

/** Two instances on one PostgreSQL schema, sandbox mode: races spread across them have one winner. */
describe('two instances on one database, sandbox mode', () => {
  const service = useService(2);
  let seller: Awaited<ReturnType<typeof connectedSeller>>;

  beforeAll(async () => {
    seller = await connectedSeller(service.next());
  });

  test('24 concurrent first validations with different machines, spread across instances, bind exactly one machine', async () => {
    // Arrange
    const grant = await service.next()('POST', '/developers/licenses', { key: seller.apiKey, body: { productId: seller.pro, email: aBuyer().email } });
    expect(grant.status).toBe(201);
    const machines = Array.from({ length: 24 }, (_, i) => `machine-${i}-${crypto.randomUUID()}`);

    // Act
    const replies = await Promise.all(
      machines.map((machineFingerprint) =>
        service.next()('POST', '/licenses/validate', { key: seller.publishableKey, body: { licenseKey: grant.body.licenseKey, machineFingerprint } }),
      ),
    );

    // Assert
    expect(replies.map((r) => r.status)).toEqual(machines.map(() => 200));
    expect(countOf(replies, (r) => r.body.valid === true)).toBe(1);
    expect(countOf(replies, (r) => r.body.valid === false && r.body.reason === 'machine_mismatch')).toBe(23);
    const winner = machines[replies.findIndex((r) => r.body.valid === true)];
    for (const i of instancesOf(service)) {
      const license = await service.on(i)('GET', `/licenses/${grant.body.license.id}`, { key: seller.apiKey });
      expect({ instance: i, machine: license.body.machineFingerprint }).toEqual({ instance: i, machine: winner });
    }
  });

  test('one sandbox checkout paid and polled concurrently through both instances yields exactly one license, the same everywhere', async () => {
    // Arrange
    const buyer = aBuyer();
    const init = await service.next()('POST', '/checkout/init', { key: seller.publishableKey, body: { productId: seller.pro, email: buyer.email } });
    expect(init.status).toBe(201);
    const { sessionId } = init.body;
    const form = { email: buyer.email, phone: buyer.phone, cardNumber: '4242424242424242' };

    // Act: 4 Pay form posts and 4 status polls on each instance, all at once.
    const pays: Promise<Reply>[] = [];
    const polls: Promise<Reply>[] = [];
    for (const i of instancesOf(service)) {
      for (let n = 0; n < 4; n++) {
        pays.push(service.on(i)('POST', `/sandbox/checkout/${sessionId}/pay`, { form }));
        polls.push(service.on(i)('GET', `/checkout/status/${sessionId}`));
      }
    }
    const [paid, polled] = await Promise.all([Promise.all(pays), Promise.all(polls)]);
    const after = await Promise.all(instancesOf(service).map((i) => service.on(i)('GET', `/checkout/status/${sessionId}`)));

    // Assert: every Pay lands on the success redirect; every poll is pending or the one license.
    expect(paid.map((r) => r.status)).toEqual(pays.map(() => 303));
    expect(polled.every((r) => r.status === 200 && ['pending', 'complete'].includes(r.body.status))).toBe(true);
    const licenses = await licensesOf(service, buyer.email);
    expect(licenses).toHaveLength(1);
    const complete = [...polled, ...after].filter((r) => r.body.status === 'complete');
    expect(complete.length).toBeGreaterThanOrEqual(service.count);
    expect(new Set(complete.map((r) => r.body.license.id))).toEqual(new Set(licenses));
    expect(new Set(complete.map((r) => r.body.licenseKey)).size).toBe(1);
  });
});
