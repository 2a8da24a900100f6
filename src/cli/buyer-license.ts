import type { LicenseCheckResult } from '../client/index.ts';
import { checkStored } from './activation.ts';
import { positionals } from './args.ts';
import { CHECK_FLAGS, CHECK_HEADERS, checkRow, clientFor, keyClaims, productNameOf, rememberLicense, requirePublishableKey, sellerJwks } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { CliError, EXIT, NotConfiguredError, UsageError } from './errors.ts';
import { limitLines, machineName, nameThisMachine, type Naming } from './machine-name.ts';
import { table } from './output.ts';
import { askHidden, pipedLine } from './prompt.ts';

/** Where the license key may come from: not the command line, which shell history and the process list keep. */
const LICENSE_KEY_SOURCES = 'pipe it on standard input (licensing activate < key-file), type it when asked on a terminal, or set LICENSING_LICENSE_KEY';

/**
 * The key to activate: a positional one still works (older scripts and mails) with a warning that
 * says why not; else LICENSING_LICENSE_KEY, else typed at a terminal without echo, else the first
 * line piped on standard input. Never printed.
 */
async function licenseKeyInput(ctx: Context): Promise<string> {
  const [given] = ctx.args.length ? positionals(ctx.args, ['licenseKey']) : [];
  if (given?.trim()) {
    ctx.note(`licensing: warning: a license key on the command line is kept by shell history and shown to every process on this machine (ps). Next time, ${LICENSE_KEY_SOURCES}.`);
    return given.trim();
  }
  const fromEnv = process.env.LICENSING_LICENSE_KEY?.trim();
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) {
    for (let tries = 0; tries < 3; tries++) {
      const typed = await askHidden('License key (not shown): ');
      if (typed) return typed;
    }
    throw new UsageError('no license key given');
  }
  const piped = await pipedLine();
  if (piped) return piped;
  throw new UsageError(`no license key: ${LICENSE_KEY_SOURCES}`);
}

const activate: Command = {
  path: 'activate',
  maxArgs: 1,
  summary: 'activate a license key on this machine (checks it online, binds the machine)',
  usage: 'activate [--name <machine name>] [--publishable-key <pk_…>] [--jwks-url <url>] [--developer <dev_…>]  (the key on stdin, at the prompt, or in LICENSING_LICENSE_KEY)',
  details: `Takes one of the license's machine slots under --name (default: the host name), then checks the
key online. A license whose slots are all taken is refused (exit 3) with the machines holding them:
free one with "licensing devices remove <id>". The key is read from LICENSING_LICENSE_KEY, else asked
for on a terminal (not shown), else the first line of standard input (licensing activate < key-file).
A key given as an argument still works, with a warning: shell history and the process list keep it.`,
  flags: [...CHECK_FLAGS, 'name'],
  async run(ctx) {
    const licenseKey = await licenseKeyInput(ctx);
    const name = machineName(ctx);
    const { productId, developerId, licenseId } = keyClaims(licenseKey);
    const previous = ctx.config.licenses?.[productId];
    const same = previous?.licenseKey === licenseKey ? previous : undefined;
    requirePublishableKey(ctx, developerId, same);
    const jwks = await sellerJwks(ctx, developerId);
    const entry = rememberLicense(ctx, licenseKey, { jwks, ...(same?.publishableKey ? { publishableKey: same.publishableKey } : {}) });
    const naming: Naming = {};
    const result = await checkStored(ctx, productId, entry, true, (client) => nameThisMachine(client, name, naming));
    const full = naming.limit ? { maxMachines: naming.limit.maxMachines, activations: naming.limit.activations } : {};
    if (!result.valid) {
      await clientFor(ctx, productId).clearCache();
      if (previous) ctx.config.licenses![productId] = previous;
      else delete ctx.config.licenses![productId];
      ctx.save();
      ctx.result({ activated: false, productId, ...result, ...full }, `License not activated: ${result.reason}.${naming.limit ? `\n${limitLines(naming.limit)}` : ''}`);
      return EXIT.invalidLicense;
    }
    ctx.save();
    const how = result.offlineVerified ? 'verified offline (the API was not reachable; it will be checked online later)' : 'checked online';
    const product = productNameOf(ctx, productId);
    const row = checkRow(product ?? productId, licenseId, result);
    const as = naming.activation?.name ? ` as "${naming.activation.name}"` : '';
    const activation = naming.activation ? { activation: naming.activation } : {};
    ctx.result({ activated: true, productId, ...(product ? { productName: product } : {}), ...result, ...activation }, () => `Activated ${licenseId} for ${product ?? productId}${as}: ${how}.\n${table(CHECK_HEADERS, [row])}`);
  },
};

const status: Command = {
  path: 'status',
  maxArgs: 1,
  summary: 'check the activated licenses (exit 3 when one is invalid)',
  usage: 'status [<productId>] [--cached] [--publishable-key <pk_…>] [--jwks-url <url>] [--developer <dev_…>]',
  details: `Runs the client library's check() for each activated license: offline signature check, then the
API (always, unless --cached: then only when the last answer is over 24 hours old); when the API cannot be
reached, the offline result. Exit 0 when all are valid, 3 when one is not.`,
  flags: [...CHECK_FLAGS, 'cached'],
  async run(ctx) {
    const [only] = ctx.args.length ? positionals(ctx.args, ['productId']) : [];
    const stored = Object.entries(ctx.config.licenses ?? {}).filter(([productId]) => only === undefined || productId === only);
    if (stored.length === 0) {
      if (only !== undefined) throw new CliError(`no license activated for ${only}`, 'not_found', EXIT.invalidLicense);
      throw new NotConfiguredError('no license activated on this machine: run "licensing activate" (the key on standard input) or "licensing buy <productId>"', 'not_activated');
    }
    const results: (LicenseCheckResult & { productId: string; productName?: string; licenseId: string })[] = [];
    for (const [productId, entry] of stored) {
      const result = await checkStored(ctx, productId, entry, !ctx.flags.bool('cached'));
      const productName = productNameOf(ctx, productId);
      if (productName) ctx.config.licenses![productId]!.productName = productName;
      results.push({ productId, ...(productName ? { productName } : {}), licenseId: keyClaims(entry.licenseKey).licenseId, ...result });
    }
    ctx.save();
    const valid = results.every((r) => r.valid);
    ctx.result({ valid, licenses: results }, () => table(CHECK_HEADERS, results.map((r) => checkRow(r.productName ?? r.productId, r.licenseId, r))));
    return valid ? EXIT.ok : EXIT.invalidLicense;
  },
};

export const buyerLicenseCommands: Command[] = [activate, status];
