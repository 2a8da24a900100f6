import { HmacDerivedSecrets } from './adapters/crypto/hmac-derived-secrets.ts';
import { HmacOtpCodes } from './adapters/crypto/hmac-otp-codes.ts';
import { NodeSigner } from './adapters/crypto/node-signer.ts';
import { SealedAnswers } from './adapters/crypto/sealed-answers.ts';
import { sha256Hashing } from './adapters/crypto/sha256-hashing.ts';
import { simpleWebAuthn } from './adapters/crypto/simple-webauthn.ts';
import { MemoryRateLimiter } from './adapters/rate-limit/memory-rate-limiter.ts';
import { KeptMailer } from './adapters/sandbox/kept-mailer.ts';
import { OutboxSmsSender } from './adapters/sandbox/outbox-sms-sender.ts';
import { SandboxProcessor } from './adapters/sandbox/sandbox-processor.ts';
import { randomIds } from './adapters/system/random-ids.ts';
import { DnsHostResolver } from './adapters/webhooks/dns-host-resolver.ts';
import { SealedWebhookSecrets } from './adapters/webhooks/sealed-webhook-secrets.ts';
import type { Settings } from './domain/settings.ts';
import type { Clock } from './ports/clock.ts';
import type { Deps, Store } from './ports/deps.ts';
import type { HostResolver } from './ports/host-resolver.ts';
import type { PaymentProcessor } from './ports/payment-processor.ts';
import type { RateLimiter } from './ports/rate-limiter.ts';
import type { Mailer } from './ports/mailer.ts';
import type { SmsSender } from './ports/sms-sender.ts';
import type { Metrics } from './ports/metrics.ts';
import type { LastSeenRecorder } from './ports/last-seen.ts';
import { noMetrics } from './adapters/system/metrics.ts';

export interface DepsParts<C extends Clock> {
  store: Store;
  clock: C;
  /** Seals the signing keys, webhook secrets and kept Idempotency-Key answers, and keys the OTP HMACs. */
  masterKey: Uint8Array;
  settings: Settings;
  /** Live providers; without them, the sandbox processor and SMS outbox. */
  processor?: PaymentProcessor;
  /** null: no texts at all (live without Twilio); undefined: the sandbox outbox. */
  sms?: SmsSender | null;
  /** SMTP; without it, the sandbox keeps every mail. */
  mailer?: Mailer;
  /** Counters shared between instances; without one, in this process's memory. */
  rateLimiter?: RateLimiter;
  /** Names to addresses; without one, the system's resolver (bounded by the webhook timeout). */
  hostResolver?: HostResolver;
  /** Where use cases count what the metrics page shows; without it, nothing is counted. */
  metrics?: Metrics;
  /** Where validations note lastSeenAt (the service's LastSeenBatch); without one, written before each answer. */
  lastSeen?: LastSeenRecorder;
}

/** The one way Deps is built (service, tests, benchmarks): real adapters around a store, a clock and a master key. */
export function composeDeps<C extends Clock>(parts: DepsParts<C>): Deps & { clock: C } {
  const { store, clock, masterKey, settings } = parts;
  return {
    ...store,
    clock,
    ids: randomIds,
    hashing: sha256Hashing,
    signer: new NodeSigner(masterKey),
    derivedSecrets: new HmacDerivedSecrets(masterKey),
    processor: parts.processor ?? new SandboxProcessor(settings.apiBaseUrl),
    sms: parts.sms === undefined ? new OutboxSmsSender(store.smsOutbox, clock) : parts.sms,
    mailer: parts.mailer ?? new KeptMailer(store.sandboxMail, clock),
    otpCodes: new HmacOtpCodes(masterKey),
    rateLimiter: parts.rateLimiter ?? new MemoryRateLimiter(clock),
    webhookSecrets: new SealedWebhookSecrets(masterKey),
    keptAnswers: new SealedAnswers(masterKey),
    hostResolver: parts.hostResolver ?? new DnsHostResolver(settings.webhooks.timeoutMs),
    settings,
    metrics: parts.metrics ?? noMetrics,
    lastSeen: parts.lastSeen ?? { seen: ({ licenseId, machineFingerprint, at }) => store.licenses.touchActivation(licenseId, machineFingerprint, at) },
    webAuthn: simpleWebAuthn,
  };
}
