/**
 * An application holding a lease, run as its own process by lease.test.ts: it checks out, prints
 * "held <id>", then either waits to be signalled (HOLD=forever) or simply ends (beforeExit).
 */
import { LicenseClient } from '../../src/client/index.ts';

const env = process.env as Record<string, string>;
const client = new LicenseClient({ baseUrl: env.BASE_URL!, apiKey: env.API_KEY!, productId: env.PRODUCT_ID!, publicKeys: JSON.parse(env.JWKS!), cacheDir: env.CACHE_DIR!, fingerprint: env.FINGERPRINT! });
await client.storeLicenseKey(env.LICENSE_KEY!);
const borrowHours = env.BORROW_HOURS ? Number(env.BORROW_HOURS) : undefined;
const lease = await client.lease({ borrowHours, onError: (error) => console.error(`heartbeat: ${error.message}`) });
console.log(`held ${lease.id}`);
if (env.HOLD === 'forever') setInterval(() => {}, 60_000);
