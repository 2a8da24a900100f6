import type { LicenseCheckResult } from '../client/index.ts';
import { checkStored } from './activation.ts';
import { positionals } from './args.ts';
import { CHECK_FLAGS, CHECK_HEADERS, checkRow, clientFor, keyClaims, productNameOf, rememberLicense, requirePublishableKey, sellerJwks } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { CliError, EXIT, NotConfiguredError } from './errors.ts';
import { limitLines, machineName, nameThisMachine, type Naming } from './machine-name.ts';
import { table } from './output.ts';

const activate: Command = {
  path: 'activate',
  maxArgs: 1,
  summary: 'activate a license key on this machine (checks it online, binds the machine)',
  usage: 'activate <licenseKey> [--name <machine name>] [--publishable-key <pk_…>] [--jwks-url <url>] [--developer <dev_…>]',
  details: `Takes one of the license's machine slots under --name (default: the host name), then checks the
key online. A license whose slots are all taken is refused (exit 3) with the machines holding them:
free one with "licensing devices remove <id>".`,
  flags: [...CHECK_FLAGS, 'name'],
  async run(ctx) {
    const [raw] = positionals(ctx.args, ['licenseKey']);
    const licenseKey = raw!.trim();
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
      throw new NotConfiguredError('no license activated on this machine: run "licensing activate <licenseKey>" or "licensing buy <productId>"', 'not_activated');
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
