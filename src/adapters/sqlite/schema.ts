import * as declared from '../store/tables.ts';
import { sqliteSchemaOf } from '../store/schema-kit.ts';

// SQLite's tables, derived from the one declaration in src/adapters/store/tables.ts (read the
// columns' meaning there). Named exports, one per table, because drizzle-kit finds tables by them.
export const {
  developers, apiKeys, signingKeys, products, customers, licenses, retiredLicenseKeys, trialClaims, developerCustomers, orders,
  paymentReversals, subscriptions, webhookEndpoints, outgoingEvents, webhookDeliveries, webhookAttempts, activations, deactivations,
  checkoutSessions, connectStates, processorAccounts, savedCards, incomingWebhookEvents, otpChallenges, loginFailures, identityTokens, purchases,
  smsOutbox, mailOutbox, sandboxMail, trialRequests, idempotencyKeys, consoleSessions, passkeys, webauthnChallenges, dailyStats,
  licenseExpiryDays, subscriptionCounts, machineFiles, leases, licenseLeaseTerms,
} = sqliteSchemaOf(declared);
