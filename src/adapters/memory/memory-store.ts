import type { Store } from '../../ports/deps.ts';
import { MemoryCardRepository } from './memory-card-repository.ts';
import { MemoryCheckoutRepository } from './memory-checkout-repository.ts';
import { MemoryConnectionRepository } from './memory-connection-repository.ts';
import { MemoryCustomerDirectory } from './memory-customer-directory.ts';
import { MemoryCustomerRepository } from './memory-customer-repository.ts';
import { MemoryDeveloperRepository } from './memory-developer-repository.ts';
import { MemoryIdentityTokenRepository } from './memory-identity-token-repository.ts';
import { MemoryLicenseRepository } from './memory-license-repository.ts';
import { MemoryOrderRepository } from './memory-order-repository.ts';
import { MemorySubscriptionRepository } from './memory-subscription-repository.ts';
import { MemoryOtpRepository } from './memory-otp-repository.ts';
import { MemoryProductRepository } from './memory-product-repository.ts';
import { MemoryPurchaseRepository } from './memory-purchase-repository.ts';
import { MemorySigningKeyRepository } from './memory-signing-key-repository.ts';
import { MemorySmsOutboxRepository } from './memory-sms-outbox-repository.ts';
import { MemoryTables } from './memory-tables.ts';
import { MemoryTrialRepository } from './memory-trial-repository.ts';
import { MemoryWebhookEventRepository } from './memory-webhook-event-repository.ts';
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository.ts';
import { MemoryOutboxRepository } from './memory-outbox-repository.ts';

/** A store that lives and dies with the process, held to the same contract suite as SQLite. */
export function openMemoryStore(): Store {
  const tables = new MemoryTables();
  const customers = new MemoryCustomerRepository(tables);
  const licenses = new MemoryLicenseRepository(tables);
  let open = true;
  return {
    developers: new MemoryDeveloperRepository(tables),
    signingKeys: new MemorySigningKeyRepository(tables),
    products: new MemoryProductRepository(tables),
    customers,
    licenses,
    trials: new MemoryTrialRepository(tables, customers, licenses),
    checkouts: new MemoryCheckoutRepository(tables),
    connections: new MemoryConnectionRepository(tables),
    cards: new MemoryCardRepository(tables),
    webhookEvents: new MemoryWebhookEventRepository(tables),
    otps: new MemoryOtpRepository(tables),
    identityTokens: new MemoryIdentityTokenRepository(tables),
    purchases: new MemoryPurchaseRepository(tables),
    smsOutbox: new MemorySmsOutboxRepository(tables),
    webhookEndpoints: new MemoryWebhookEndpointRepository(),
    outbox: new MemoryOutboxRepository(),
    orders: new MemoryOrderRepository(tables),
    customerDirectory: new MemoryCustomerDirectory(tables),
    subscriptions: new MemorySubscriptionRepository(tables),
    ping: async () => open,
    close: async () => {
      open = false;
    },
  };
}
