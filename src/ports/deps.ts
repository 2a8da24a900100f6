import type { Clock } from './clock.ts';
import type { DerivedSecrets, Hashing, Signer, TextSealer } from './crypto.ts';
import type { CustomerDirectory } from './customer-directory.ts';
import type { CustomerRepository } from './customer-repository.ts';
import type { DeveloperRepository } from './developer-repository.ts';
import type { Ids } from './ids.ts';
import type { LicenseRepository } from './license-repository.ts';
import type { ProductRepository } from './product-repository.ts';
import type { SigningKeyRepository } from './signing-key-repository.ts';
import type { CardRepository } from './card-repository.ts';
import type { CheckoutRepository } from './checkout-repository.ts';
import type { ConnectionRepository } from './connection-repository.ts';
import type { PaymentProcessor } from './payment-processor.ts';
import type { IncomingWebhookEventRepository } from './incoming-webhook-event-repository.ts';
import type { IdentityTokenRepository } from './identity-token-repository.ts';
import type { OtpCodes } from './otp-codes.ts';
import type { OrderRepository } from './order-repository.ts';
import type { SubscriptionRepository } from './subscription-repository.ts';
import type { OtpRepository } from './otp-repository.ts';
import type { PurchaseRepository } from './purchase-repository.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { SmsOutboxRepository } from './sms-outbox-repository.ts';
import type { SmsSender } from './sms-sender.ts';
import type { TrialRepository } from './trial-repository.ts';
import type { TrialRequestRepository } from './trial-request-repository.ts';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts';
import type { OutboxRepository } from './outbox-repository.ts';
import type { WebhookSecrets } from './webhook-secrets.ts';
import type { HostResolver } from './host-resolver.ts';
import type { Settings } from '../domain/settings.ts';
import type { MailOutboxRepository, SandboxMailRepository } from './mail-repository.ts';
import type { Mailer } from './mailer.ts';
import type { Metrics } from './metrics.ts';
import type { LastSeenRecorder } from './last-seen.ts';
import type { IdempotencyRepository } from './idempotency-repository.ts';
import type { ConsoleSessionRepository } from './console-session-repository.ts';
import type { PasskeyRepository } from './passkey-repository.ts';
import type { WebAuthn } from './webauthn.ts';
import type { StatsRepository } from './stats-repository.ts';
import type { MachineFileRepository } from './machine-file-repository.ts';
import type { LeaseRepository } from './lease-repository.ts';

/** The stored state of the service, one repository per kind of record. */
export interface Repositories {
  developers: DeveloperRepository;
  signingKeys: SigningKeyRepository;
  products: ProductRepository;
  customers: CustomerRepository;
  licenses: LicenseRepository;
  checkouts: CheckoutRepository;
  connections: ConnectionRepository;
  cards: CardRepository;
  incomingWebhookEvents: IncomingWebhookEventRepository;
  otps: OtpRepository;
  identityTokens: IdentityTokenRepository;
  purchases: PurchaseRepository;
  smsOutbox: SmsOutboxRepository;
  webhookEndpoints: WebhookEndpointRepository;
  /** Outgoing webhooks: events, deliveries, attempts (docs/webhooks.md). */
  outbox: OutboxRepository;
  orders: OrderRepository;
  customerDirectory: CustomerDirectory;
  /** Recurring products' subscriptions (docs/subscriptions.md). */
  subscriptions: SubscriptionRepository;
  /** Starting a free trial: its license, claims and first machine in one transaction. */
  trials: TrialRepository;
  /** Trials asked for with a publishable key, waiting for the code e-mailed to their address. */
  trialRequests: TrialRequestRepository;
  /** Mail waiting to go out, written with the change it reports (docs/mail.md). */
  mailOutbox: MailOutboxRepository;
  /** The sandbox's kept mail (what would have been sent). */
  sandboxMail: SandboxMailRepository;
  /** Idempotency-Key records: the first answer to each caller's key (docs/api-rules.md). */
  idempotencyKeys: IdempotencyRepository;
  /** Seller console sessions (docs/console-sign-in.md). */
  consoleSessions: ConsoleSessionRepository;
  /** Sellers' passkeys and their ceremonies' challenges. */
  passkeys: PasskeyRepository;
  /** The seller console's figures, from rollups kept with every change (docs/console-api.md). */
  stats: StatsRepository;
  /** Every machine file issued (docs/machine-files.md). */
  machineFiles: MachineFileRepository;
  /** Floating leases (docs/leases.md). */
  leases: LeaseRepository;
}

/** Everything a use case may ask for; each takes only the part it needs. */
export interface Deps extends Repositories {
  clock: Clock;
  ids: Ids;
  hashing: Hashing;
  signer: Signer;
  /** Keys derived from the master key (the receipts' publishable key). */
  derivedSecrets: DerivedSecrets;
  processor: PaymentProcessor;
  /** Null where no SMS provider is configured in live mode: every code then goes by e-mail. */
  sms: SmsSender | null;
  /** SMTP when configured; the sandbox keeps the mail otherwise. */
  mailer: Mailer;
  otpCodes: OtpCodes;
  /** Shared counters: in memory with SQLite, in PostgreSQL or Redis when several instances run. */
  rateLimiter: RateLimiter;
  /** Outgoing webhooks' endpoint secrets, sealed with the master key. */
  webhookSecrets: WebhookSecrets;
  /** Seals the answers kept for Idempotency-Key with the master key. */
  keptAnswers: TextSealer;
  /** Names to addresses: a webhook endpoint's host is checked when registered. */
  hostResolver: HostResolver;
  /** The tunables read from the environment (limits, addresses, timings). */
  settings: Settings;
  /** Counts for the operators' metrics page (nothing is kept when no page is served). */
  metrics: Metrics;
  /** Where validations note the machines they saw (lastSeenAt): batched behind the answers in the service. */
  lastSeen: LastSeenRecorder;
  /** WebAuthn ceremonies for the console's passkeys. */
  webAuthn: WebAuthn;
}

/** A store: the repositories plus its own lifecycle. */
export interface Store extends Repositories {
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
