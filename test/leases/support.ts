import { withSocketAddress } from '../../src/adapters/http/client-address.ts';
import type { Store } from '../../src/ports/deps.ts';
import { FixedClock } from '../support/clock.ts';
import { depsFor } from '../support/deps.ts';
import { client } from '../e2e/support.ts';
import { seller, testApi } from '../support/http.ts';

/**
 * The HTTP app over `store` on a fixed clock, served by a real Bun.serve on a free 127.0.0.1 port:
 * requests go over TCP, as a client's do.
 */
export function servedApi(store: Store, clock = new FixedClock()) {
  // Every test signs up sellers from 127.0.0.1: no sign-up limit here (it has tests of its own).
  const deps = depsFor(store, clock, { addressLimits: { signupsPerHour: 0 } });
  const api = testApi({ deps });
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: withSocketAddress((request) => api.app.handle(request)) });
  const url = `http://127.0.0.1:${server.port}`;
  const call = client(url);
  return { ...api, call, url, stop: () => server.stop(true) };
}

export type ServedApi = ReturnType<typeof servedApi>;

/** A seller whose product lends `maxLeases` floating leases of `leaseSeconds`, and one granted license of it. */
export async function leasing(api: ServedApi, terms: { maxLeases: number | null; leaseSeconds?: number; maxBorrowHours?: number } = { maxLeases: 3 }) {
  const s = await seller(api);
  const changed = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: terms });
  if (changed.status !== 200) throw new Error(JSON.stringify(changed.body));
  const { license, licenseKey } = await s.grant();
  const checkout = (machineFingerprint: string, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/licenses/leases', { key: s.publishableKey, body: { licenseKey, machineFingerprint, productId: s.product.id, ...extra } });
  const heartbeat = (leaseId: string, key = licenseKey) => api.call('POST', `/licenses/leases/${leaseId}/heartbeat`, { key: s.publishableKey, body: { licenseKey: key } });
  const release = (leaseId: string, key = licenseKey) => api.call('POST', `/licenses/leases/${leaseId}/release`, { key: s.publishableKey, body: { licenseKey: key } });
  return { s, license, licenseKey, checkout, heartbeat, release };
}
