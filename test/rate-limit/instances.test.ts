import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { RedisClient } from 'bun';
import { freshPostgresSchema, randomMasterKey, startCluster, type Cluster, type PostgresSchema } from '../support/server-process.ts';
import { TEST_REDIS_URL } from './limiters.ts';

/** Two real server processes over one PostgreSQL schema, 3 validations a minute per license. */
const SETUPS = [
  { name: 'counted in PostgreSQL', env: {} as Record<string, string> },
  { name: 'counted in Redis (REDIS_URL)', env: { REDIS_URL: TEST_REDIS_URL } },
];

async function post(url: string, path: string, key: string | null, body: unknown) {
  const response = await fetch(`${url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

/** Waits out the last seconds of a wall-clock minute, so four quick requests share one window. */
async function awayFromMinuteBoundary() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await Bun.sleep(left + 50);
}

for (const setup of SETUPS) {
  describe(`two instances hold one validation limit per license (${setup.name})`, () => {
    let schema: PostgresSchema;
    let cluster: Cluster;
    let seller: { id: string; publishableKey: string; licenseKey: string; licenseId: string };
    beforeAll(async () => {
      schema = freshPostgresSchema();
      cluster = await startCluster(2, { DATABASE_URL: schema.databaseUrl, MASTER_KEY: randomMasterKey(), VALIDATE_RATE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'warn', ...setup.env });
      const url = cluster.instances[0]!.url;
      const signup = await post(url, '/developers/signup', null, { email: `rl-${crypto.randomUUID()}@example.com`, name: 'Seller' });
      const product = await post(url, '/developers/products', signup.body.apiKey, { name: 'Pro', price: 1000, currency: 'usd' });
      const grant = await post(url, '/developers/licenses', signup.body.apiKey, { productId: product.body.id, email: 'buyer@example.com' });
      seller = { id: signup.body.id, publishableKey: signup.body.publishableKey, licenseKey: grant.body.licenseKey, licenseId: grant.body.license.id };
    }, 60_000);
    afterAll(async () => {
      await cluster?.stop();
      await schema?.drop();
      if (setup.env.REDIS_URL) {
        const redis = new RedisClient(TEST_REDIS_URL);
        const keys = (await redis.send('KEYS', [`licensing:rl:validate:license:${seller.licenseId}:*`])) as string[];
        if (keys.length > 0) await redis.send('DEL', keys);
        redis.close();
      }
    });

    test('validations alternating between the instances: the 4th in a minute is 429 with Retry-After', async () => {
      await awayFromMinuteBoundary();
      const [a, b] = cluster.instances.map((i) => i.url) as [string, string];
      const body = { licenseKey: seller.licenseKey, machineFingerprint: 'machine-a' };

      const replies = [];
      for (const url of [a, b, a, b]) replies.push(await post(url, '/licenses/validate', seller.publishableKey, body));

      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(replies[3]!.body.error.code).toBe('rate_limited');
      expect(Number(replies[3]!.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(replies[3]!.retryAfter)).toBeLessThanOrEqual(60);
    }, 30_000);
  });
}
