import { randomBytes } from 'node:crypto';
import { ApiError, LicenseClient } from '../client/index.ts';
import { CHECK_FLAGS, keyClaims, requirePublishableKey, sellerJwks } from './buyer-common.ts';
import { cacheDirFor } from './config.ts';
import type { Command, Context } from './context.ts';
import { CliError, EXIT, NotConfiguredError, type ExitCode } from './errors.ts';

/** The signals passed on to the command; the lease is released once it has exited. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** The license to lease from: LICENSING_LICENSE_KEY (CI), else the one activated here (--product picks among several). */
function licenseToLease(ctx: Context): { licenseKey: string; productId: string } {
  const fromEnv = process.env.LICENSING_LICENSE_KEY?.trim();
  if (fromEnv) return { licenseKey: fromEnv, productId: keyClaims(fromEnv).productId };
  const only = ctx.flags.string('product');
  const stored = Object.entries(ctx.config.licenses ?? {}).filter(([productId]) => only === undefined || productId === only);
  if (stored.length === 1) return { licenseKey: stored[0]![1].licenseKey, productId: stored[0]![0] };
  if (stored.length > 1) throw new CliError('several licenses are activated here: pick one with --product <productId>', 'ambiguous_license');
  throw new NotConfiguredError('no license to lease from: set LICENSING_LICENSE_KEY, or run "licensing activate" first', 'not_activated');
}

/** LICENSING_FINGERPRINT (a container's documented override), else a fresh id: each run is a machine of its own. */
export function leaseFingerprint(env: NodeJS.ProcessEnv = process.env): string {
  return env.LICENSING_FINGERPRINT?.trim() || randomBytes(32).toString('hex');
}

/** Secrets this program reads from its environment: the command it runs is handed none of them. */
const WITHHELD = ['LICENSING_LICENSE_KEY', 'LICENSING_SECRET_KEY'] as const;

/**
 * The command's environment: ours without the license key and the seller's secret key (a build
 * script, or anything it runs, could log or send them), with the lease it runs under.
 */
export function childEnv(leaseId: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !(WITHHELD as readonly string[]).includes(name)) kept[name] = value;
  return { ...kept, LICENSING_LEASE_ID: leaseId };
}

/** Runs the command with inherited stdio; its exit code (128 + signal when a signal ended it). */
async function runHolding(argv: string[], env: Record<string, string>): Promise<number> {
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(argv, { stdio: ['inherit', 'inherit', 'inherit'], env });
  } catch (error) {
    throw new CliError(`cannot run ${argv[0]}: ${(error as Error).message}`, 'command_not_found', 127 as ExitCode);
  }
  const forward = FORWARDED.map((signal) => [signal, () => child.kill(signal)] as const);
  for (const [signal, handler] of forward) process.on(signal, handler);
  try {
    const code = await child.exited;
    return child.signalCode ? 128 + (SIGNAL_NUMBERS[child.signalCode] ?? 0) : code;
  } finally {
    for (const [signal, handler] of forward) process.removeListener(signal, handler);
  }
}

const leaseRun: Command = {
  path: 'lease run',
  maxArgs: 100_000,
  summary: 'hold a floating lease while a command runs; its exit code is passed through',
  usage: 'lease run [--product <productId>] [--publishable-key <pk_…>] [--jwks-url <url>] [--developer <dev_…>] -- <command> [args…]',
  details: `Checks out one of the license's floating leases (docs/leases.md), runs the command, heartbeats while it
runs and releases the lease when it ends, however it ends; the command's exit code is this program's. The
license: LICENSING_LICENSE_KEY (for CI), else the one activated here. The machine: LICENSING_FINGERPRINT,
else a fresh id for every run (a CI job or container is a machine of its own). All leases taken: exit 3.
The command's environment is this one without LICENSING_LICENSE_KEY and LICENSING_SECRET_KEY, with
LICENSING_LEASE_ID (the lease it runs under).`,
  flags: [...CHECK_FLAGS, 'product'],
  async run(ctx) {
    const argv = ctx.args;
    if (argv.length === 0) throw new CliError('no command to run: licensing lease run -- <command> [args…]', 'usage', EXIT.usage);
    const { licenseKey, productId } = licenseToLease(ctx);
    const { developerId } = keyClaims(licenseKey);
    const stored = ctx.config.licenses?.[productId];
    const apiKey = requirePublishableKey(ctx, developerId, stored?.licenseKey === licenseKey ? stored : undefined);
    const publicKeys = await sellerJwks(ctx, developerId, stored);
    const client = new LicenseClient({ baseUrl: ctx.apiUrl, apiKey, productId, publicKeys, fingerprint: leaseFingerprint(), appName: 'licensing-cli', cacheDir: cacheDirFor(ctx.configPath, `${productId}.leases`) });
    await client.storeLicenseKey(licenseKey);
    let lease;
    try {
      lease = await client.lease({ releaseOnExit: false, onError: (error) => ctx.note(`licensing: lease heartbeat failed (${error.message}); the lease is kept and tried again`) });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'lease_limit') throw new CliError(`${error.message}`, 'lease_limit', EXIT.invalidLicense);
      throw error;
    }
    try {
      return (await runHolding(argv, childEnv(lease.id))) as ExitCode;
    } finally {
      await lease.release().catch((error: Error) => ctx.note(`licensing: the lease could not be released (${error.message}); it frees itself at ${new Date(lease.expiresAt).toISOString()}`));
    }
  },
};

export const leaseCommands: readonly Command[] = [leaseRun];
