import { masterKeyFile, sandboxMasterKey } from './adapters/crypto/master-key.ts';
import { describeError, errorResponse, STATUS_OF } from './adapters/http/errors.ts';
import { serverFetch } from './adapters/http/request-route.ts';
import { withSocketAddress } from './adapters/http/client-address.ts';
import { startPeriodicSweep } from './adapters/system/periodic-sweep.ts';
import { startMailSender } from './adapters/system/mail-sender.ts';
import { LastSeenBatch } from './adapters/system/last-seen-batch.ts';
import { startSqliteBackups } from './adapters/sqlite/sqlite-backup.ts';
import { startSchemaGuard } from './adapters/system/schema-guard.ts';
import { appliedPostgresMigrations } from './adapters/postgres/postgres-migrate.ts';
import { POSTGRES_MIGRATION_LIST } from './adapters/postgres/migrations/index.ts';
import { sweepExpired } from './app/maintenance/sweep.ts';
import { sweepOutbox } from './app/outgoing-webhooks/sweep-outbox.ts';
import { HttpWebhookSender } from './adapters/webhooks/http-webhook-sender.ts';
import { startWebhookDispatcher } from './adapters/webhooks/webhook-dispatcher.ts';
import { createHttpApp, MAX_BODY_BYTES } from './adapters/http/server.ts';
import { openSqliteStore } from './adapters/sqlite/sqlite-store.ts';
import { openPostgresStore, type PostgresStore } from './adapters/postgres/postgres-store.ts';
import { MemoryRateLimiter } from './adapters/rate-limit/memory-rate-limiter.ts';
import { PostgresRateLimiter } from './adapters/rate-limit/postgres-rate-limiter.ts';
import { RedisRateLimiter } from './adapters/rate-limit/redis-rate-limiter.ts';
import { FailOpenRateLimiter } from './adapters/rate-limit/fail-open-rate-limiter.ts';
import { jsonLogger, type Logger } from './adapters/system/logger.ts';
import { StoreHealth } from './adapters/system/store-health.ts';
import { ServiceMetrics } from './adapters/system/metrics.ts';
import { CountingRateLimiter } from './adapters/rate-limit/counting-rate-limiter.ts';
import { systemClock } from './adapters/system/system-clock.ts';
import { HEAP_RAM_ENV } from './adapters/system/heap-budget.ts';
import { composeDeps } from './compose.ts';
import { ConfigError, loadConfig, settingsOf, type Config } from './config.ts';
import type { Store } from './ports/deps.ts';
import type { RateLimiter } from './ports/rate-limiter.ts';
import type { Database } from 'bun:sqlite';
import pkg from '../package.json' with { type: 'json' };

async function openStore(config: Config): Promise<{ store: Store; masterKey: Uint8Array; postgres?: PostgresStore; sqlite?: Database }> {
  if (config.store.kind === 'postgres') {
    // Several instances share the database, so they must share the key that seals the signing keys.
    if (!config.masterKey) throw new ConfigError('MASTER_KEY is required with PostgreSQL: every instance must use the same one.');
    const postgres = await openPostgresStore(config.store.url, {
      schema: config.store.schema,
      max: config.postgresPoolSize,
      upgradeDrainMs: config.upgradeDrainMs,
      statementTimeoutMs: config.deadlines.statementTimeoutMs,
      lockTimeoutMs: config.deadlines.lockTimeoutMs,
      connectTimeoutMs: config.deadlines.connectTimeoutMs,
      poolWaitMs: config.deadlines.poolWaitMs,
    });
    return { store: postgres, masterKey: config.masterKey, postgres };
  }
  let store: ReturnType<typeof openSqliteStore>;
  try {
    store = openSqliteStore(config.store.path, { owner: true, cacheEntries: config.licenseCacheSize, busyTimeoutMs: config.deadlines.sqliteBusyTimeoutMs });
  } catch (error) {
    if (!/database is locked/.test(String((error as Error)?.message))) throw error;
    throw new ConfigError(`DATABASE_URL: ${config.store.path} is in use by another process: a SQLite file is served by one process at a time.`);
  }
  return { store, masterKey: config.masterKey ?? sandboxMasterKey(config.store.path), sqlite: store.sqlite };
}

/**
 * Rate limits hold across instances: in Redis when REDIS_URL is set, else in PostgreSQL; one SQLite
 * process keeps them in memory. Shared counters that stop answering let requests through (logged).
 */
async function openRateLimiter(config: Config, postgres: PostgresStore | undefined, log: Logger): Promise<{ rateLimiter: RateLimiter & { failingOpen?: boolean }; close(): Promise<void> }> {
  if (config.redisUrl) {
    let redis: RedisRateLimiter;
    try {
      redis = await RedisRateLimiter.connect(config.redisUrl, systemClock);
    } catch (error) {
      throw new Error(`REDIS_URL: Redis does not answer (${error instanceof Error ? error.message : String(error)}).`);
    }
    return { rateLimiter: new FailOpenRateLimiter(redis, log), close: () => redis.close() };
  }
  if (postgres) {
    const limiter = await PostgresRateLimiter.open(postgres.sql, postgres.schema, systemClock);
    return { rateLimiter: new FailOpenRateLimiter(limiter, log), close: () => limiter.close() };
  }
  const memory = new MemoryRateLimiter(systemClock);
  return { rateLimiter: memory, close: () => memory.close() };
}

/**
 * The live providers' SDKs load only when configured: the Twilio SDK alone adds ~110 ms to start-up
 * and ~30 MB of memory that sandbox mode never needs.
 */
async function liveProviders(config: Config) {
  const stripe = config.stripe && new (await import('./adapters/stripe/stripe-processor.ts')).StripeProcessor(config.stripe);
  const twilio = config.twilio && new (await import('./adapters/twilio/twilio-sms-sender.ts')).TwilioSmsSender(config.twilio);
  const smtp = config.smtp && new (await import('./adapters/mail/smtp-mailer.ts')).SmtpMailer({ ...config.smtp, messageIdHost: new URL(config.publicBaseUrl).hostname });
  return { stripe, twilio, smtp };
}

/** The RAM, in MB, the runtime sizes its heap for (MEMORY_BUDGET_MB, applied by main.ts), or null: the machine's. */
function heapSizedFor(): number | null {
  const bytes = Number(process.env[HEAP_RAM_ENV]);
  return bytes > 0 ? Math.round(bytes / 1048576) : null;
}

/** Every request answered 503 `unavailable` while `refuse()` holds. */
function refusingWhen(refuse: () => boolean, handle: (request: Request) => Response | Promise<Response>) {
  return (request: Request) => refuse()
    ? errorResponse(STATUS_OF.unavailable, 'unavailable', 'This instance runs an older release than the database: a newer release serves this service now.')
    : handle(request);
}

async function serve(config: Config, log: Logger) {
  let schemaTooNew = false;
  const { store, masterKey, postgres, sqlite } = await openStore(config);
  const limits = await openRateLimiter(config, postgres, log);
  const live = await liveProviders(config);
  // Counted whether or not a page is served (a property increment each); GET /metrics only with METRICS_TOKEN.
  const metrics = new ServiceMetrics();
  metrics.readFrom({ outboxDepths: () => store.outbox.depths(), rateLimitsFailingOpen: () => limits.rateLimiter.failingOpen === true, pool: postgres?.poolUsage });
  // Validations note the machines they saw; the writes follow the answers, once a second (docs/operating.md).
  const lastSeen = new LastSeenBatch(store.licenses, log, { everyMs: config.lastSeenFlushMs });
  const deps = composeDeps({
    store,
    clock: systemClock,
    masterKey,
    settings: settingsOf(config),
    processor: live.stripe ?? undefined,
    // Live without Twilio sends no texts (codes go by e-mail); the sandbox keeps its outbox.
    sms: live.twilio ?? (config.live ? null : undefined),
    mailer: live.smtp ?? undefined,
    rateLimiter: new CountingRateLimiter(limits.rateLimiter, metrics.rateLimitRefused),
    metrics,
    lastSeen,
  });
  const { settings } = deps;
  const storeHealth = new StoreHealth(log);
  let draining = false;
  const app = createHttpApp(deps, {
    log,
    ping: store.ping,
    storeHealth,
    draining: () => draining,
    publicBaseUrl: config.publicBaseUrl,
    version: pkg.version,
    benchCeiling: config.benchCeiling,
    // Start-up refuses a half-live configuration; once anything is live, no sandbox page exists.
    sandboxSms: !config.live,
    metrics: config.metricsToken ? { page: metrics, token: config.metricsToken } : undefined,
  });
  const logRequests = config.logLevel === 'debug' || config.logLevel === 'info';
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // The app itself answers a JSON 413 past 64 KiB (declared or streamed); Bun's own refusal has no body,
    // so its limit sits far above ours.
    maxRequestBodySize: MAX_BODY_BYTES * 1024,
    development: false,
    // Last resort: whatever escapes the app is still the contract's JSON, never Bun's HTML page.
    error: (error) => {
      log.error('unhandled error', describeError(error));
      return errorResponse(500, 'internal_error', 'Something went wrong on our side.');
    },
    // The socket's address is recorded first: the per-address limits count under it (client-address.ts).
    // Once a newer release has migrated (or is about to migrate) the schema, nothing more is served.
    fetch: withSocketAddress(refusingWhen(() => schemaTooNew, serverFetch(app.fetch, log, logRequests, metrics))),
  });
  log.info('listening', { url: `http://${config.host}:${server.port}`, publicBaseUrl: config.publicBaseUrl, store: config.store.kind, rateLimits: config.redisUrl ? 'redis' : config.store.kind === 'postgres' ? 'postgres' : 'memory', sandbox: !config.live, heapSizedForMb: heapSizedFor() });
  // One line for the person who started it, on stderr: stdout stays JSON lines for log collectors.
  // It is news, not a warning: LOG_LEVEL=warn or error keeps start-up silent.
  if (logRequests) console.error(`Licensing service listening on ${config.host}:${server.port}, public at ${config.publicBaseUrl}. API reference: ${config.publicBaseUrl}/v1/docs`);

  // Every instance sweeps, at jittered times: the sweep is idempotent, so they need no coordination.
  const sweeper = settings.retentionSweepMinutes > 0
    ? startPeriodicSweep(async () => ({ ...(await sweepExpired(deps)), ...(await sweepOutbox(deps)) }), log, { everyMs: settings.retentionSweepMinutes * 60_000, firstWithinMs: 10_000 }, metrics.sweepRun)
    : null;

  // Every instance sends webhooks too: the store hands each due delivery to one of them at a time.
  const webhooks = settings.webhooks;
  const dispatcher = webhooks.concurrency > 0
    ? startWebhookDispatcher(
      {
        clock: systemClock,
        outbox: store.outbox,
        secrets: deps.webhookSecrets,
        sender: new HttpWebhookSender({ timeoutMs: webhooks.timeoutMs, allowPrivateAddresses: webhooks.allowPrivateAddresses, userAgent: `licensing-webhooks/${pkg.version}`, resolver: deps.hostResolver }),
        random: Math.random,
        schedule: webhooks.retryScheduleMs ?? undefined,
      },
      log,
      webhooks,
      metrics,
      storeHealth,
    )
    : null;

  // The owning process snapshots its SQLite file (config refuses BACKUP_DIR with PostgreSQL); a
  // generated master key goes beside the snapshots, one given in MASTER_KEY is the operator's to keep.
  const backups = config.backup && sqlite && config.store.kind === 'sqlite'
    ? startSqliteBackups(sqlite, { ...config.backup, masterKeyFile: config.masterKey ? null : masterKeyFile(config.store.path) }, log, (at) => metrics.backupCompleted(at))
    : null;

  // Every instance sends mail: each round claims what it sends.
  const mailSender = startMailSender(deps, log, { leaseMs: deps.settings.mailLeaseMs, probeMs: deps.settings.mailRelayProbeMs, health: storeHealth });
  metrics.readFrom({ mailBacklog: () => store.mailOutbox.backlog(), mailRelayDown: () => mailSender.relayDown() });

  // Each step of stopping runs whatever the one before it ended in: a full disk or a lost database
  // leaves a line in the log, never a stack trace and an exit code 1.
  const step = async (name: string, run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      log.warn('stopping: step failed', { step: name, ...describeError(error) });
    }
  };
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    // Not ready first: load balancers stop sending requests while the ones already sent still succeed.
    draining = true;
    // SIGINT is a person at a terminal, and a newer schema must not be written to: no one to drain for.
    const drainSeconds = signal === 'SIGTERM' ? config.shutdownDrainSeconds : 0;
    log.info('stopping', { signal, drainSeconds });
    schemaGuard?.stop();
    if (drainSeconds > 0) await Bun.sleep(drainSeconds * 1000);
    await step('server', () => server.stop()); // waits for in-flight requests
    // The sightings the last answers noted; none once a newer release owns the schema.
    await step('last seen', async () => {
      if (signal === 'schema') return;
      const machines = lastSeen.size;
      await lastSeen.stop();
      if (machines > 0) log.info('last seen written', { machines });
    });
    await step('sweeper', () => sweeper?.stop());
    await step('backups', () => backups?.stop());
    await step('webhooks', () => dispatcher?.stop()); // lets the deliveries in flight finish and be recorded
    await step('mail', () => mailSender.stop());
    await step('smtp', () => live.smtp?.close());
    await step('rate limits', () => limits.close());
    await step('store', () => store.close());
    log.info('stopped');
    process.exit(exitCode);
  };

  // Instances share a PostgreSQL database: once a newer release has migrated it, or announced that it
  // will (postgres-migrate.ts), this one must write nothing more: its writes would go where the new
  // code no longer looks. It answers 503 at once, stops as on SIGTERM, and exits 1; restarted, it
  // refuses to start with the same line.
  const schemaGuard = postgres
    ? startSchemaGuard(() => appliedPostgresMigrations(postgres.sql, postgres.schema), POSTGRES_MIGRATION_LIST, (error) => {
      schemaTooNew = true;
      log.error('schema migrated by a newer release; stopping', { error: error.message });
      console.error(`Stopping: ${error.message}`);
      void stop('schema', 1);
    }, config.schemaCheckMs)
    : null;
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
const log = jsonLogger(config.logLevel);
try {
  await serve(config, log);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof ConfigError ? `Configuration error: ${message}` : `Start-up failed: ${message}`);
  process.exit(1);
}
