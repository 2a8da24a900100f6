import type { Store } from '../../ports/deps.ts';
import { DrizzleCardRepository } from './drizzle-card-repository.ts';
import { DrizzleConnectionRepository } from './drizzle-connection-repository.ts';
import { DrizzleCustomerRepository } from './drizzle-customer-repository.ts';
import { DrizzleIdentityTokenRepository } from './drizzle-identity-token-repository.ts';
import { DrizzleOtpRepository } from './drizzle-otp-repository.ts';
import { DrizzleProductRepository } from './drizzle-product-repository.ts';
import { DrizzlePurchaseRepository } from './drizzle-purchase-repository.ts';
import { DrizzleSigningKeyRepository } from './drizzle-signing-key-repository.ts';
import { DrizzleSubscriptionRepository } from './drizzle-subscription-repository.ts';
import { DrizzleSmsOutboxRepository } from './drizzle-sms-outbox-repository.ts';
import { DrizzleWebhookEventRepository } from './drizzle-webhook-event-repository.ts';
import type { SqlStore } from './sql-store.ts';
import { DrizzleMailOutboxRepository, DrizzleSandboxMailRepository } from './drizzle-mail-repositories.ts';
import { DrizzleTrialRequestRepository } from './drizzle-trial-request-repository.ts';
import { DrizzleIdempotencyRepository } from './drizzle-idempotency-repository.ts';
import { DrizzleConsoleSessionRepository, DrizzlePasskeyRepository } from './drizzle-console-repositories.ts';
import { DrizzleStatsRepository } from './drizzle-stats-repository.ts';

type SharedRepositories = Pick<Store, 'products' | 'customers' | 'signingKeys' | 'connections' | 'cards' | 'webhookEvents' | 'otps' | 'identityTokens' | 'purchases' | 'smsOutbox' | 'subscriptions' | 'mailOutbox' | 'sandboxMail' | 'trialRequests' | 'idempotencyKeys' | 'consoleSessions' | 'passkeys' | 'stats'>;

/** The repositories whose queries are the same in both dialects, built once over either store. */
export function sharedRepositories(store: SqlStore): SharedRepositories {
  return {
    products: new DrizzleProductRepository(store),
    customers: new DrizzleCustomerRepository(store),
    signingKeys: new DrizzleSigningKeyRepository(store),
    connections: new DrizzleConnectionRepository(store),
    cards: new DrizzleCardRepository(store),
    webhookEvents: new DrizzleWebhookEventRepository(store),
    otps: new DrizzleOtpRepository(store),
    identityTokens: new DrizzleIdentityTokenRepository(store),
    purchases: new DrizzlePurchaseRepository(store),
    smsOutbox: new DrizzleSmsOutboxRepository(store),
    subscriptions: new DrizzleSubscriptionRepository(store),
    mailOutbox: new DrizzleMailOutboxRepository(store),
    sandboxMail: new DrizzleSandboxMailRepository(store),
    trialRequests: new DrizzleTrialRequestRepository(store),
    idempotencyKeys: new DrizzleIdempotencyRepository(store),
    consoleSessions: new DrizzleConsoleSessionRepository(store),
    passkeys: new DrizzlePasskeyRepository(store),
    stats: new DrizzleStatsRepository(store),
  };
}

/** A store's health check: true while the probe query runs, false once it throws. */
export function pingWith(probe: () => unknown): () => Promise<boolean> {
  return async () => {
    try {
      await probe();
      return true;
    } catch {
      return false;
    }
  };
}
