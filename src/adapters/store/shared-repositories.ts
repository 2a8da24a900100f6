import type { Store } from '../../ports/deps.ts';
import { DrizzleCardRepository } from './processor/card-queries.ts';
import { DrizzleConnectionRepository } from './processor/connection-queries.ts';
import { DrizzleCustomerRepository } from './customers/customer-queries.ts';
import { DrizzleIdentityTokenRepository } from './sign-in/identity-token-queries.ts';
import { DrizzleOtpRepository } from './sign-in/otp-queries.ts';
import { DrizzleProductRepository } from './products/product-queries.ts';
import { DrizzlePurchaseRepository } from './purchases/purchase-queries.ts';
import { DrizzleSigningKeyRepository } from './developers/signing-key-queries.ts';
import { DrizzleSubscriptionRepository } from './subscriptions/subscription-queries.ts';
import { DrizzleSmsOutboxRepository } from './messages/sms-outbox-queries.ts';
import { DrizzleIncomingWebhookEventRepository } from './processor/incoming-webhook-event-queries.ts';
import type { SqlStore } from './sql-store.ts';
import { DrizzleMailOutboxRepository, DrizzleSandboxMailRepository } from './messages/mail-queries.ts';
import { DrizzleTrialRequestRepository } from './trials/trial-request-queries.ts';
import { DrizzleIdempotencyRepository } from './idempotency/idempotency-queries.ts';
import { DrizzleConsoleSessionRepository, DrizzlePasskeyRepository } from './sign-in/console-session-queries.ts';
import { DrizzleStatsRepository } from './stats/stats-queries.ts';

type SharedRepositories = Pick<Store, 'products' | 'customers' | 'signingKeys' | 'connections' | 'cards' | 'incomingWebhookEvents' | 'otps' | 'identityTokens' | 'purchases' | 'smsOutbox' | 'subscriptions' | 'mailOutbox' | 'sandboxMail' | 'trialRequests' | 'idempotencyKeys' | 'consoleSessions' | 'passkeys' | 'stats'>;

/** The repositories whose queries are the same in both dialects, built once over either store. */
export function sharedRepositories(store: SqlStore): SharedRepositories {
  return {
    products: new DrizzleProductRepository(store),
    customers: new DrizzleCustomerRepository(store),
    signingKeys: new DrizzleSigningKeyRepository(store),
    connections: new DrizzleConnectionRepository(store),
    cards: new DrizzleCardRepository(store),
    incomingWebhookEvents: new DrizzleIncomingWebhookEventRepository(store),
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
