/**
 * The service's tunables: plain values read from the environment (src/config.ts names each
 * variable) and handed to use cases, routes, sweeps and the webhook sender as `deps.settings`.
 * A new one is declared here with its default, parsed in config.ts and read where it is used.
 */
export interface Settings {
  /** `iss` of every license key: the service's PUBLIC_BASE_URL. */
  issuer: string;
  /** Where the service's own pages live: PUBLIC_BASE_URL + "/v1". */
  apiBaseUrl: string;
  /** Validations allowed per license per minute (VALIDATE_RATE_LIMIT_PER_MINUTE); 0 = no limit. */
  validateRateLimitPerMinute: number;
  /** Requests counted per client address (see docs/limits-and-retention.md). */
  addressLimits: AddressLimits;
  /** The header a trusted reverse proxy puts the client address in (TRUSTED_PROXY_HEADER); null: the socket's. */
  trustedProxyHeader: string | null;
  /** Minutes between this instance's retention sweeps (0 = this instance does not sweep). */
  retentionSweepMinutes: number;
  /** Outgoing webhooks' sender (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /** How long a mail claimed by a sender is its alone (MAIL_LEASE_SECONDS): after a crash, it goes out again after this (docs/mail.md). */
  mailLeaseMs: number;
  /** While the mail relay is down, each instance tries one mail this often (MAIL_RELAY_PROBE_SECONDS; docs/mail.md). */
  mailRelayProbeMs: number;
}

/** Requests allowed per client address in each window; 0 turns one limit off. */
export interface AddressLimits {
  /** Validations whose key does not verify or names no license of the caller, per minute. */
  invalidValidationsPerMinute: number;
  signupsPerHour: number;
  loginInitsPerHour: number;
  checkoutInitsPerMinute: number;
  /** Free trials started with a publishable key (POST /trials), per hour. */
  trialsPerHour: number;
}

export interface WebhookSettings {
  /** http:// URLs and private, loopback and link-local addresses are allowed (development and tests only). */
  allowPrivateAddresses: boolean;
  /** Deliveries in flight at once in this instance; 0 = this instance sends none. */
  concurrency: number;
  pollMs: number;
  /** A claimed delivery whose sender died is claimed again after this long. */
  leaseMs: number;
  timeoutMs: number;
  /** Delays between attempts; null = Standard Webhooks' schedule (about three days). */
  retryScheduleMs: number[] | null;
}

/** No real user meets these: they only bound what one address can make the service store or send. */
export const DEFAULT_ADDRESS_LIMITS: AddressLimits = {
  invalidValidationsPerMinute: 120,
  signupsPerHour: 10,
  loginInitsPerHour: 60,
  checkoutInitsPerMinute: 60,
  // Free trials: an office behind one address starts a few an hour, a script thousands.
  trialsPerHour: 20,
};

export const DEFAULT_SETTINGS: Settings = {
  issuer: 'http://localhost:3000',
  apiBaseUrl: 'http://localhost:3000/v1',
  // Per license: room for many machines retrying at once, far below what would tax the service.
  validateRateLimitPerMinute: 600,
  addressLimits: DEFAULT_ADDRESS_LIMITS,
  trustedProxyHeader: null,
  retentionSweepMinutes: 10,
  webhooks: { allowPrivateAddresses: false, concurrency: 8, pollMs: 1000, leaseMs: 60_000, timeoutMs: 10_000, retryScheduleMs: null },
  // A send never takes that long, a crash does.
  mailLeaseMs: 5 * 60_000,
  // The longest a backlog waits once the relay is back, and one connection per interval while it is not.
  mailRelayProbeMs: 15_000,
};

/** `base` (the defaults) with some changed: a nested group (addressLimits, webhooks) is merged, not replaced. */
export function settingsWith(changes: SettingsChanges = {}, base: Settings = DEFAULT_SETTINGS): Settings {
  const { addressLimits, webhooks, ...flat } = changes;
  return {
    ...base,
    ...flat,
    addressLimits: { ...base.addressLimits, ...addressLimits },
    webhooks: { ...base.webhooks, ...webhooks },
  };
}

export type SettingsChanges = Partial<Omit<Settings, 'addressLimits' | 'webhooks'>> & {
  addressLimits?: Partial<AddressLimits>;
  webhooks?: Partial<WebhookSettings>;
};
