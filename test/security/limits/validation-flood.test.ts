import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { PostgresRateLimiter } from '../../../src/adapters/rate-limit/postgres-rate-limiter.ts';
import type { PostgresStore } from '../../../src/adapters/postgres/postgres-store.ts';
import type { TestStore } from '../../contracts/stores.ts';
import { seller, type TestApi } from '../../support/http.ts';
import { apiOver, from, HTTP_STORES } from './stores.ts';

const validate = (api: TestApi, key: string, licenseKey: string, headers: Record<string, string> = {}, machineFingerprint = 'machine-a') =>
  api.call('POST', '/licenses/validate', { key, headers, body: { licenseKey, machineFingerprint } });

/** Keys that name none of the seller's licenses: malformed, forged, and another seller's genuine one. */
async function junkKeys(api: TestApi, licenseKey: string) {
  const [header, payload] = licenseKey.split('.');
  const othersKey = (await (await seller(api)).grant()).licenseKey;
  return ['not-a-license-key', `${header}.${payload}.${'A'.repeat(86)}`, othersKey];
}

for (const setup of HTTP_STORES) {
  describe(`POST /licenses/validate under a flood of junk (${setup.name})`, () => {
    let opened: TestStore;
    beforeEach(async () => {
      opened = await setup.open();
    });
    afterEach(async () => {
      await opened.dispose();
    });

    /** The default limits; on PostgreSQL the counters live in PostgreSQL, as in a cluster. */
    async function defaultApi() {
      if (setup.name !== 'PostgreSQL') return apiOver(opened);
      const api = apiOver(opened);
      const pg = opened.store as PostgresStore;
      return apiOver(opened, { rateLimiter: await PostgresRateLimiter.open(pg.sql, pg.schema, api.clock) });
    }

    test('6,001 junk validations with the seller’s pk_ from one address: junk is refused, a valid license still validates from that address', async () => {
      const api = await defaultApi();
      const s = await seller(api);
      const { licenseKey } = await s.grant();
      const junk = await junkKeys(api, licenseKey);

      const statuses = new Map<number, number>();
      for (let i = 0; i < 6_001; i++) {
        const reply = await validate(api, s.publishableKey, junk[i % junk.length]!);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }
      const valid = await validate(api, s.publishableKey, licenseKey);
      const freshKey = await api.call('POST', '/developers/api-keys', { key: s.apiKey, body: { scope: 'publishable' } });
      const withFreshKey = await validate(api, freshKey.body.key, licenseKey);

      expect(statuses.get(200)).toBe(120); // the per-address allowance for keys that name no license of the caller
      expect(statuses.get(429)).toBe(5_881);
      expect(valid.status).toBe(200);
      expect(valid.body).toMatchObject({ valid: true, license: { status: 'active' } });
      expect(withFreshKey.status).toBe(200);
      expect(withFreshKey.body.valid).toBe(true);
    }, 120_000);
  });
}
