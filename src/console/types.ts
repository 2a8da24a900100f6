/** The shapes the console reads, as the API documents them (GET /v1/openapi.json). */

export interface Developer {
  id: string;
  email: string;
  name: string;
}

export interface SessionAnswer {
  developer: Developer;
  session: { id: string; createdAt: number; expiresAt: number; how: 'email' | 'passkey' };
  csrfToken: string;
}

export interface Money {
  currency: string;
  amount: number;
}

export interface Product {
  id: string;
  name: string;
  price: number;
  currency: string;
  features: string[];
  licenseDays: number | null;
  maxMachines: number | null;
  deactivationsPer30Days: number;
  interval: 'month' | 'year' | null;
  graceDays: number;
  trialDays: number | null;
  active: boolean;
  createdAt: number;
}

export interface License {
  id: string;
  productId: string;
  customerId: string;
  status: 'active' | 'expired' | 'revoked';
  features: string[];
  issuedAt: number;
  expiresAt: number | null;
  machineFingerprint: string | null;
  customerEmail?: string;
  trial?: boolean;
  subscriptionId?: string | null;
  licenseKey?: string;
}

export interface Activation {
  id: string;
  name: string | null;
  machineFingerprint: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface Activations {
  licenseId: string;
  maxMachines: number | null;
  data: Activation[];
}

export interface Customer {
  id: string;
  email: string;
  firstSeenAt: number;
  licenses: { id: string; productId: string; status: string; issuedAt: number; expiresAt: number | null; trial: boolean }[];
  moreLicenses: boolean;
}

export interface Order {
  id: string;
  customerEmail: string;
  productId: string;
  licenseId: string;
  source: 'checkout' | 'purchase' | 'renewal';
  amount: number | string;
  currency: string;
  processor: string;
  status: 'paid' | 'refunded';
  createdAt: number;
  amountRefunded: number | string;
  refundedAt: number | null;
}

export interface Subscription {
  id: string;
  customerEmail: string;
  productId: string;
  licenseId: string;
  status: 'active' | 'past_due' | 'canceled';
  interval: 'month' | 'year';
  currentPeriodEnd: number | string;
  cancelAtPeriodEnd: boolean;
  createdAt: number;
  canceledAt: number | null;
}

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
  secret?: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  createdAt: number;
  attemptLog?: { at: number; status: number | null; error: string | null; durationMs: number }[];
}

export interface EventItem {
  id: string;
  type: string;
  data: unknown;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  scope: 'secret' | 'publishable';
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt?: number | null;
}

export interface Stats {
  from: string;
  to: string;
  interval: 'day' | 'week' | 'month';
  series: { period: string; newLicenses: number; orders: number; revenue: Money[] }[];
  totals: { activeLicenses: number; activeMachines: number; mrr: Money[]; newLicenses: number; revenue: Money[] };
  failingWebhookEndpoints: { id: string; url: string; enabled: boolean; disabledReason: string | null; failingSince: number | null; failedDeliveries: number }[];
  recentOrders: Order[];
}

export interface ConsoleSession {
  id: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  how: 'email' | 'passkey';
  userAgent: string | null;
  clientAddress: string | null;
  current: boolean;
}

export interface Passkey {
  id: string;
  name: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}
