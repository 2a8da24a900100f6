import { availableParallelism } from 'node:os';
import { LOG_LEVELS, type LogLevel } from './adapters/system/logger.ts';
import { parseTrustedHeader } from './adapters/http/client-address.ts';
import { MEMORY_BUDGET_PROBLEM, parseMemoryBudget } from './adapters/system/heap-budget.ts';
import { DEFAULT_SETTINGS, type AddressLimits, type Settings, type WebhookSettings } from './domain/settings.ts';

export interface StripeConfig {
  secretKey: string;
  /** null: the webhook endpoint answers 404. */
  webhookSecret: string | null;
  connectClientId: string;
  /** Another Stripe API address (tests point it at a local fake). */
  apiBase: string | null;
}

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  from: string;
  /** Another Twilio API address (tests point it at a local fake). */
  apiBase: string | null;
}

export interface SmtpConfig {
  /** smtp:// or smtps://, credentials in the URL. */
  url: string;
  /** The From header. */
  from: string;
}

export type StoreConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };

/** Everything start-up needs: the settings the running service reads, and what only main.ts uses. */
export interface Config extends Settings {
  port: number;
  host: string;
  publicBaseUrl: string;
  store: StoreConfig;
  /** Connections to PostgreSQL per instance (DATABASE_POOL_SIZE). */
  postgresPoolSize: number;
  /** Store deadlines: past them a request answers 503 unavailable rather than waiting (docs/operating.md). */
  deadlines: StoreDeadlines;
  /** Seconds /health/ready answers 503 after SIGTERM before the server stops (SHUTDOWN_DRAIN_SECONDS). */
  shutdownDrainSeconds: number;
  /** How long a machine's sighting waits in memory before lastSeenAt is written (LAST_SEEN_FLUSH_MS): the crash window. */
  lastSeenFlushMs: number;
  /** 32 bytes, or null: sandbox mode keeps one in the data folder. */
  masterKey: Uint8Array | null;
  logLevel: LogLevel;
  /** License states the SQLite store keeps in memory for validation (0 = none). */
  licenseCacheSize: number;
  /** Rate limits live in this Redis when set; otherwise in PostgreSQL, or in memory with SQLite. */
  redisUrl: string | null;
  /** Stripe when STRIPE_SECRET_KEY is set; null = the sandbox processor. */
  stripe: StripeConfig | null;
  /** Twilio when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set; null = the sandbox SMS outbox, or no texts at all in live mode. */
  twilio: TwilioConfig | null;
  /** SMTP when SMTP_URL is set; null = the sandbox keeps every mail (GET /v1/sandbox/mail). */
  smtp: SmtpConfig | null;
  /** Stripe and SMTP are configured (never one without the other; Twilio optional, never alone); MASTER_KEY is then required and nothing under /v1/sandbox exists. */
  live: boolean;
  benchCeiling: boolean;
  /** SQLite snapshots written by the owning process (BACKUP_DIR); null = none. */
  backup: BackupConfig | null;
  /** With PostgreSQL, how often each instance checks that no newer release has migrated the schema (SCHEMA_CHECK_SECONDS). */
  schemaCheckMs: number;
  /** With PostgreSQL, how long a release about to migrate a schema in use waits for the older instances to stop (UPGRADE_DRAIN_SECONDS). */
  upgradeDrainMs: number;
  /** The bearer token GET /metrics asks for; null: no metrics page at all (404). */
  metricsToken: string | null;
}

export interface BackupConfig {
  dir: string;
  everyMs: number;
  keep: number;
}

/** How long a statement, a lock or a connection may keep a request waiting. */
export interface StoreDeadlines {
  /** PostgreSQL statement_timeout on every connection (DB_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number;
  /** PostgreSQL lock_timeout on every connection (DB_LOCK_TIMEOUT_MS). */
  lockTimeoutMs: number;
  /** Waiting for PostgreSQL to accept a new connection (DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** Waiting for a turn on the PostgreSQL pool (DB_POOL_WAIT_MS). */
  poolWaitMs: number;
  /** SQLite's busy_timeout (SQLITE_BUSY_TIMEOUT_MS); it blocks the process while it waits, so keep it short. */
  sqliteBusyTimeoutMs: number;
}

export const DEFAULT_DEADLINES: StoreDeadlines = { statementTimeoutMs: 5_000, lockTimeoutMs: 2_000, connectTimeoutMs: 5_000, poolWaitMs: 2_000, sqliteBusyTimeoutMs: 1_000 };
export const DEFAULT_SHUTDOWN_DRAIN_SECONDS = 5;
/** The default LAST_SEEN_FLUSH_MS: a crash loses at most a second of sightings. */
export const LAST_SEEN_FLUSH_MS = 1_000;

export class ConfigError extends Error {}

/** MEMORY_BUDGET_MB is applied by main.ts before anything is read (heap-budget.ts), which skips a malformed one: refused here, with the other variables. */
function checkMemoryBudget(value: string | undefined): void {
  if (parseMemoryBudget(value) === null) throw new ConfigError(`${MEMORY_BUDGET_PROBLEM} Got "${String(value).slice(0, 20)}".`);
}

type Env = Record<string, string | undefined>;

/** Reads and checks every variable; the first bad one stops start-up with a line that names it. */
export function loadConfig(env: Env): Config {
  const port = parsePort(env.PORT);
  const publicBaseUrl = parseBaseUrl(env.PUBLIC_BASE_URL ?? `http://localhost:${port}`);
  const live = Boolean(env.STRIPE_SECRET_KEY || env.TWILIO_ACCOUNT_SID || env.TWILIO_AUTH_TOKEN || env.SMTP_URL);
  requireBothProviders(env);
  const masterKey = parseMasterKey(env.MASTER_KEY);
  if (live && !masterKey) throw new ConfigError('MASTER_KEY is required when a live provider (Stripe or Twilio) is configured.');
  const store = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/licensing.db');
  checkMemoryBudget(env.MEMORY_BUDGET_MB);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicBaseUrl,
    store,
    postgresPoolSize: parsePoolSize(env.DATABASE_POOL_SIZE, availableParallelism()),
    deadlines: parseDeadlines(env),
    shutdownDrainSeconds: parseBounded('SHUTDOWN_DRAIN_SECONDS', env.SHUTDOWN_DRAIN_SECONDS, DEFAULT_SHUTDOWN_DRAIN_SECONDS, 0, 300),
    lastSeenFlushMs: parseBounded('LAST_SEEN_FLUSH_MS', env.LAST_SEEN_FLUSH_MS, LAST_SEEN_FLUSH_MS, 100, 60_000),
    masterKey,
    logLevel: parseLogLevel(env.LOG_LEVEL),
    licenseCacheSize: parseCount('LICENSE_CACHE_SIZE', env.LICENSE_CACHE_SIZE, 100_000),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    ...parseSettings(env, publicBaseUrl),
    stripe: parseStripe(env),
    twilio: parseTwilio(env),
    smtp: parseSmtp(env, publicBaseUrl),
    live,
    benchCeiling: env.LICENSING_BENCH_CEILING === '1',
    backup: parseBackup(env, store),
    ...parseUpgradeTimes(env),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
  };
}

/**
 * SCHEMA_CHECK_SECONDS (5) and UPGRADE_DRAIN_SECONDS (30): the wait must cover an older instance's
 * check and the requests it finishes while stopping.
 */
function parseUpgradeTimes(env: Env): { schemaCheckMs: number; upgradeDrainMs: number } {
  const schemaCheckMs = parseSeconds('SCHEMA_CHECK_SECONDS', env.SCHEMA_CHECK_SECONDS, 5_000);
  const upgradeDrainMs = parseSeconds('UPGRADE_DRAIN_SECONDS', env.UPGRADE_DRAIN_SECONDS, 30_000);
  if (upgradeDrainMs <= 2 * schemaCheckMs) throw new ConfigError(`UPGRADE_DRAIN_SECONDS (${upgradeDrainMs / 1000}) must be more than twice SCHEMA_CHECK_SECONDS (${schemaCheckMs / 1000}).`);
  return { schemaCheckMs, upgradeDrainMs };
}

/**
 * BACKUP_DIR (unset: no backups), BACKUP_INTERVAL_SECONDS (3600), BACKUP_KEEP (24). A SQLite file
 * only: PostgreSQL is backed up with its own tools (docs/operating.md), and a setting that would
 * back nothing up is refused rather than left to be believed.
 */
function parseBackup(env: Env, store: StoreConfig): BackupConfig | null {
  const dir = env.BACKUP_DIR;
  if (!dir) {
    if (env.BACKUP_INTERVAL_SECONDS || env.BACKUP_KEEP) throw new ConfigError('BACKUP_INTERVAL_SECONDS and BACKUP_KEEP need BACKUP_DIR (the folder the snapshots go to).');
    return null;
  }
  if (store.kind === 'postgres') throw new ConfigError('BACKUP_DIR backs up a SQLite file only: back PostgreSQL up with pg_dump -Fc (docs/operating.md), and unset BACKUP_DIR.');
  if (store.path === ':memory:') throw new ConfigError('BACKUP_DIR needs a SQLite file: sqlite::memory: keeps nothing to back up.');
  const everyMs = parseSeconds('BACKUP_INTERVAL_SECONDS', env.BACKUP_INTERVAL_SECONDS, 3_600_000);
  const keep = parseCount('BACKUP_KEEP', env.BACKUP_KEEP, 24);
  if (keep < 1) throw new ConfigError(`BACKUP_KEEP must be at least 1, got "${env.BACKUP_KEEP}".`);
  return { dir, everyMs, keep };
}

/** At least 16 visible characters, no spaces: it is sent as `Authorization: Bearer <token>`. */
function parseMetricsToken(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(value)) throw new ConfigError('METRICS_TOKEN must be 16 to 256 visible ASCII characters without spaces (e.g. openssl rand -hex 32).');
  return value;
}

/** The settings (src/domain/settings.ts) from the environment: a variable left unset keeps its default. */
function parseSettings(env: Env, publicBaseUrl: string): Settings {
  const d = DEFAULT_SETTINGS;
  return {
    issuer: publicBaseUrl,
    apiBaseUrl: `${publicBaseUrl}/v1`,
    validateRateLimitPerMinute: parseCount('VALIDATE_RATE_LIMIT_PER_MINUTE', env.VALIDATE_RATE_LIMIT_PER_MINUTE, d.validateRateLimitPerMinute),
    addressLimits: parseAddressLimits(env),
    trustedProxyHeader: parseTrustedProxyHeader(env.TRUSTED_PROXY_HEADER),
    retentionSweepMinutes: parseCount('RETENTION_SWEEP_MINUTES', env.RETENTION_SWEEP_MINUTES, d.retentionSweepMinutes),
    webhooks: parseWebhookSettings(env),
    mailLeaseMs: parseSeconds('MAIL_LEASE_SECONDS', env.MAIL_LEASE_SECONDS, d.mailLeaseMs),
    mailRelayProbeMs: parseSeconds('MAIL_RELAY_PROBE_SECONDS', env.MAIL_RELAY_PROBE_SECONDS, d.mailRelayProbeMs),
  };
}

/** Whole seconds, at least 1, as milliseconds. */
function parseSeconds(name: string, value: string | undefined, fallbackMs: number): number {
  const seconds = parseCount(name, value, fallbackMs / 1000);
  if (seconds < 1) throw new ConfigError(`${name} must be at least 1 (seconds), got "${value}".`);
  return seconds * 1000;
}

/** The settings part of a loaded config, for deps: none of its secrets (MASTER_KEY, Stripe, Twilio). */
export function settingsOf(config: Config): Settings {
  const entries = (Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]).map((name) => [name, config[name]]);
  return Object.fromEntries(entries) as Settings;
}

/**
 * Live means live end to end. A live processor beside the sandbox's kept mail would publish real
 * customers' keys and codes; live SMS or mail beside the sandbox processor would reach real people
 * for made-up payments, and its checkout pages cannot exist once anything is live. Twilio is
 * optional: without it, live mode sends no texts and every code goes by e-mail.
 */
function requireBothProviders(env: Env): void {
  const stripe = Boolean(env.STRIPE_SECRET_KEY);
  const twilio = Boolean(env.TWILIO_ACCOUNT_SID || env.TWILIO_AUTH_TOKEN);
  const smtp = Boolean(env.SMTP_URL);
  if (stripe && !smtp) throw new ConfigError('STRIPE_SECRET_KEY is set but SMTP_URL is not: live payments need live mail, since receipts carry the license keys (set SMTP_URL and MAIL_FROM, or unset STRIPE_SECRET_KEY for sandbox mode).');
  if (smtp && !stripe) throw new ConfigError('SMTP_URL is set but STRIPE_SECRET_KEY is not: live mail goes with live payments, and sandbox mode keeps every mail at /v1/sandbox/mail (set STRIPE_SECRET_KEY and STRIPE_CONNECT_CLIENT_ID, or unset SMTP_URL).');
  if (twilio && !stripe) throw new ConfigError('TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN are set but STRIPE_SECRET_KEY is not: live SMS needs live payments (set STRIPE_SECRET_KEY and STRIPE_CONNECT_CLIENT_ID, or unset the TWILIO_ variables for sandbox mode).');
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new ConfigError(`PORT must be a number from 0 to 65535, got "${value}".`);
  return port;
}

function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL is not a valid URL: "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_BASE_URL must start with http:// or https://.');
  if (url.search || url.hash) throw new ConfigError('PUBLIC_BASE_URL must not have a query or a fragment.');
  return value.replace(/\/+$/, '');
}

function parseDatabaseUrl(value: string): StoreConfig {
  if (value === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/licensing.db.');
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL.');
    }
    // ?schema=name keeps the service's tables in one schema (default public), e.g. one per environment.
    const schema = url.searchParams.get('schema') ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new ConfigError('DATABASE_URL: schema must be a lower-case SQL identifier.');
    url.searchParams.delete('schema');
    return { kind: 'postgres', url: url.toString(), schema };
  }
  throw new ConfigError(`DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…, got "${value.slice(0, 40)}".`);
}

const REDIS_PROTOCOLS = ['redis:', 'rediss:', 'redis+tls:', 'redis+unix:', 'redis+tls+unix:', 'valkey:', 'valkeys:'];

function parseRedisUrl(value: string | undefined): string | null {
  if (!value) return null;
  let protocol: string | null = null;
  try {
    protocol = new URL(value).protocol;
  } catch {}
  if (!protocol || !REDIS_PROTOCOLS.includes(protocol)) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379.');
  return value;
}

function parseMasterKey(value: string | undefined): Uint8Array | null {
  if (!value) return null;
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) ? Buffer.from(value.trim(), 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32) throw new ConfigError('MASTER_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`).');
  return new Uint8Array(bytes);
}

function parseStripe(env: Env): StripeConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey) return null;
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) throw new ConfigError('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key).');
  const connectClientId = env.STRIPE_CONNECT_CLIENT_ID ?? '';
  if (!/^ca_\S+$/.test(connectClientId)) throw new ConfigError('STRIPE_CONNECT_CLIENT_ID must be set with Stripe (ca_…, from the Connect settings).');
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  if (webhookSecret && !/^whsec_\S+$/.test(webhookSecret)) throw new ConfigError('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…).');
  return { secretKey, webhookSecret, connectClientId, apiBase: apiBaseOf(env, 'STRIPE_API_BASE') };
}

/** The origin of an API base override (tests point a provider at a fake server), or null when unset. */
function apiBaseOf(env: Env, name: 'STRIPE_API_BASE' | 'TWILIO_API_BASE'): string | null {
  const value = env[name];
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${value}".`);
  }
}

function parseSmtp(env: Env, publicBaseUrl: string): SmtpConfig | null {
  const url = env.SMTP_URL;
  if (!url) {
    if (env.MAIL_FROM) throw new ConfigError('MAIL_FROM is set but SMTP_URL is not: set SMTP_URL (smtp://user:pass@host:587 or smtps://…:465) too.');
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SMTP_URL is not a valid URL: smtp://user:password@host:587 or smtps://user:password@host:465.');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got "${parsed.protocol}".`);
  if (!parsed.hostname) throw new ConfigError('SMTP_URL names no host.');
  const from = env.MAIL_FROM?.trim() || `Licensing <no-reply@${new URL(publicBaseUrl).hostname}>`;
  if (/[\r\n\0]/.test(from) || !/@[^@\s>]+>?$/.test(from)) throw new ConfigError('MAIL_FROM must be an address, e.g. "Acme <licenses@acme.dev>" or licenses@acme.dev.');
  return { url, from };
}

function parseTwilio(env: Env): TwilioConfig | null {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = env;
  if (!accountSid && !authToken) return null;
  if (!accountSid || !/^AC[0-9a-zA-Z]{8,}$/.test(accountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID must be an account sid (AC…) when TWILIO_AUTH_TOKEN is set.');
  if (!authToken) throw new ConfigError('TWILIO_AUTH_TOKEN must be set with TWILIO_ACCOUNT_SID.');
  if (!from?.trim()) throw new ConfigError('TWILIO_FROM must be set with Twilio: the sending number (+1…) or messaging service.');
  return { accountSid, authToken, from: from.trim(), apiBase: apiBaseOf(env, 'TWILIO_API_BASE') };
}

function parseAddressLimits(env: Env): AddressLimits {
  const d = DEFAULT_SETTINGS.addressLimits;
  return {
    invalidValidationsPerMinute: parseCount('VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE', env.VALIDATE_INVALID_RATE_LIMIT_PER_MINUTE, d.invalidValidationsPerMinute),
    signupsPerHour: parseCount('SIGNUP_RATE_LIMIT_PER_HOUR', env.SIGNUP_RATE_LIMIT_PER_HOUR, d.signupsPerHour),
    loginInitsPerHour: parseCount('LOGIN_RATE_LIMIT_PER_HOUR', env.LOGIN_RATE_LIMIT_PER_HOUR, d.loginInitsPerHour),
    checkoutInitsPerMinute: parseCount('CHECKOUT_RATE_LIMIT_PER_MINUTE', env.CHECKOUT_RATE_LIMIT_PER_MINUTE, d.checkoutInitsPerMinute),
    trialsPerHour: parseCount('TRIAL_RATE_LIMIT_PER_HOUR', env.TRIAL_RATE_LIMIT_PER_HOUR, d.trialsPerHour),
  };
}

/** Off unless set: a header is only as trustworthy as the proxy that overwrites it. */
function parseTrustedProxyHeader(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  const name = parseTrustedHeader(value);
  if (!name) throw new ConfigError(`TRUSTED_PROXY_HEADER must be a header name such as x-forwarded-for or x-real-ip, got "${value.slice(0, 40)}".`);
  return name;
}

/**
 * Twice the cores, 4 to 16: more connections than the machine can run at once only queue inside
 * PostgreSQL, where a preempted backend holding a buffer lock stalls the others (measured: 8
 * connections on 2 cores gave 40–100 ms p99 stalls on the license lists, 4 gave 9 ms).
 */
export function defaultPoolSize(cores: number): number {
  return Math.min(16, Math.max(4, 2 * cores));
}

function parsePoolSize(value: string | undefined, cores: number): number {
  if (value === undefined || value === '') return defaultPoolSize(cores);
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 100) throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number from 1 to 100, got "${value.slice(0, 20)}".`);
  return Number(value);
}

function parseDeadlines(env: Env): StoreDeadlines {
  const d = DEFAULT_DEADLINES;
  return {
    statementTimeoutMs: parseBounded('DB_STATEMENT_TIMEOUT_MS', env.DB_STATEMENT_TIMEOUT_MS, d.statementTimeoutMs, 100, 600_000),
    lockTimeoutMs: parseBounded('DB_LOCK_TIMEOUT_MS', env.DB_LOCK_TIMEOUT_MS, d.lockTimeoutMs, 50, 600_000),
    connectTimeoutMs: parseBounded('DB_CONNECT_TIMEOUT_MS', env.DB_CONNECT_TIMEOUT_MS, d.connectTimeoutMs, 1_000, 600_000),
    poolWaitMs: parseBounded('DB_POOL_WAIT_MS', env.DB_POOL_WAIT_MS, d.poolWaitMs, 10, 600_000),
    sqliteBusyTimeoutMs: parseBounded('SQLITE_BUSY_TIMEOUT_MS', env.SQLITE_BUSY_TIMEOUT_MS, d.sqliteBusyTimeoutMs, 0, 60_000),
  };
}

function parseBounded(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d{1,7}$/.test(value) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value.slice(0, 20)}".`);
  return n;
}

function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw new ConfigError(`${name} must be a whole number (0 or more), got "${value}".`);
  return Number(value);
}

function parseLogLevel(value: string | undefined): LogLevel {
  if (!value) return 'info';
  if (!LOG_LEVELS.includes(value as LogLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}".`);
  return value as LogLevel;
}

function parseWebhookSettings(env: Env): WebhookSettings {
  const d = DEFAULT_SETTINGS.webhooks;
  const allow = env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(allow)) throw new ConfigError(`WEBHOOK_ALLOW_PRIVATE_ADDRESSES must be true or false, got "${allow.slice(0, 20)}".`);
  const timeoutMs = parseCount('WEBHOOK_TIMEOUT_SECONDS', env.WEBHOOK_TIMEOUT_SECONDS, d.timeoutMs / 1000) * 1000;
  const leaseMs = parseCount('WEBHOOK_LEASE_SECONDS', env.WEBHOOK_LEASE_SECONDS, d.leaseMs / 1000) * 1000;
  // A lease shorter than a request would let a second sender take a delivery the first is still sending.
  if (timeoutMs < 1000 || leaseMs <= timeoutMs) throw new ConfigError('WEBHOOK_LEASE_SECONDS must be longer than WEBHOOK_TIMEOUT_SECONDS (at least 1).');
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_SECONDS?.trim();
  if (schedule && !/^\d{1,6}(,\d{1,6}){0,19}$/.test(schedule)) throw new ConfigError('WEBHOOK_RETRY_SCHEDULE_SECONDS must be seconds separated by commas, e.g. 5,300,1800.');
  return {
    allowPrivateAddresses: allow === 'true' || allow === '1',
    concurrency: parseCount('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, d.concurrency),
    pollMs: Math.max(50, parseCount('WEBHOOK_POLL_MS', env.WEBHOOK_POLL_MS, d.pollMs)),
    leaseMs,
    timeoutMs,
    retryScheduleMs: schedule ? schedule.split(',').map((s) => Number(s) * 1000) : d.retryScheduleMs,
  };
}
