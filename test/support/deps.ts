import { randomBytes } from 'node:crypto';
import { NodeSigner } from '../../src/adapters/crypto/node-signer.ts';
import { sha256Hashing } from '../../src/adapters/crypto/sha256-hashing.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { randomIds } from '../../src/adapters/system/random-ids.ts';
import { SealedWebhookSecrets } from '../../src/adapters/webhooks/sealed-webhook-secrets.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox/sandbox-processor.ts';
import { OutboxSmsSender } from '../../src/adapters/sandbox/outbox-sms-sender.ts';
import { HmacOtpCodes } from '../../src/adapters/crypto/hmac-otp-codes.ts';
import { MemoryRateLimiter } from '../../src/adapters/rate-limit/memory-rate-limiter.ts';
import { DEFAULT_VALIDATE_RATE_LIMIT_PER_MINUTE } from '../../src/app/licenses/validation-limit.ts';
import { DEFAULT_ADDRESS_LIMITS } from '../../src/app/limits/address-limits.ts';
import type { Deps, Store } from '../../src/ports/deps.ts';
import { FixedClock } from './clock.ts';

export const TEST_ISSUER = 'http://127.0.0.1:3000';

/** Real adapters around any store, with a fixed clock. */
export function depsFor(store: Store, clock = new FixedClock()): Deps & { clock: FixedClock } {
  return {
    ...store,
    clock,
    ids: randomIds,
    hashing: sha256Hashing,
    signer: new NodeSigner(new Uint8Array(randomBytes(32))),
    processor: new SandboxProcessor(`${TEST_ISSUER}/v1`),
    sms: new OutboxSmsSender(store.smsOutbox, clock),
    otpCodes: new HmacOtpCodes(new Uint8Array(randomBytes(32))),
    rateLimiter: new MemoryRateLimiter(clock),
    validateRateLimitPerMinute: DEFAULT_VALIDATE_RATE_LIMIT_PER_MINUTE,
    addressLimits: DEFAULT_ADDRESS_LIMITS,
    trustedProxyHeader: null,
    webhooks: { secrets: new SealedWebhookSecrets(new Uint8Array(randomBytes(32))), allowPrivateAddresses: false },
    issuer: TEST_ISSUER,
    apiBaseUrl: `${TEST_ISSUER}/v1`,
  };
}

/** A real SQLite store: `:memory:` by default, or a file path. */
export function sqliteDeps(path = ':memory:', clock = new FixedClock()) {
  const store = openSqliteStore(path);
  return { deps: depsFor(store, clock), store };
}
