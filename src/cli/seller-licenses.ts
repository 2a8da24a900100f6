import type { LicenseView } from '../domain/license.ts';
import { positionals } from './args.ts';
import type { Command, Context } from './context.ts';
import { UsageError } from './errors.ts';
import { fields, list, when } from './output.ts';
import { confirm } from './prompt.ts';
import { requireSeller } from './seller-auth.ts';
import { licenseList } from './seller-license-list.ts';

/** `--expires-at 2027-01-31` or a full ISO date-time; `never` for a perpetual license. */
export function expiresAt(raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (['never', 'perpetual', 'null'].includes(raw.trim().toLowerCase())) return null;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw.trim()) ? Date.parse(raw.trim()) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--expires-at must be an ISO date such as 2027-01-31 or 2027-01-31T12:00:00Z, or "never"; not "${raw}"`);
  return ms;
}

function describe(license: LicenseView): [string, string][] {
  return [
    ['License', license.id],
    ['Product', license.productId],
    ['Customer', license.customerId],
    ['Status', license.status],
    ['Features', list(license.features)],
    ['Issued', when(license.issuedAt)],
    ['Expires', when(license.expiresAt)],
    ['Machine', license.machineFingerprint ?? 'not bound'],
  ];
}

const grant: Command = {
  path: 'seller licenses grant',
  summary: 'grant a license by hand (beta testers, support)',
  usage: 'seller licenses grant --product <productId> --email <email> [--features a,b] [--expires-at <ISO date>|never]',
  flags: ['product', 'email', 'features', 'expires-at'],
  async run(ctx) {
    const body: Record<string, unknown> = {
      productId: ctx.flags.required('product', '--product <productId>'),
      email: ctx.flags.required('email', '--email <email>'),
    };
    const features = ctx.flags.list('features');
    if (features !== undefined) body.features = features;
    const expiry = expiresAt(ctx.flags.string('expires-at'));
    if (expiry !== undefined) body.expiresAt = expiry;
    const { apiKey } = requireSeller(ctx);
    const issued = await ctx.api.request<{ license: LicenseView; licenseKey: string }>('POST', '/developers/licenses', { apiKey, body });
    ctx.result(issued, () => `${fields([...describe(issued.license), ['License key', '']])}\n${issued.licenseKey}`);
  },
};

const entitlements: Command = {
  path: 'seller licenses entitlements',
  maxArgs: 1,
  summary: 'set a license’s own entitlements (besides its product’s); re-signs its key',
  usage: 'seller licenses entitlements <licenseId> --set a,b',
  details: 'The license then holds its product’s current features plus these (--set "" leaves the product’s alone). Its key is re-signed (printed); the old one still validates and hands the new one over. The same set again changes nothing. docs/entitlements.md.',
  flags: ['set'],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['licenseId']);
    const set = ctx.flags.list('set');
    if (set === undefined) throw new UsageError('--set a,b is required: the license’s own entitlements, comma-separated ("" for none)');
    const { apiKey } = requireSeller(ctx);
    const changed = await ctx.api.request<{ license: LicenseView; licenseKey: string }>('PUT', `/licenses/${encodeURIComponent(id!)}/entitlements`, { apiKey, body: { entitlements: set } });
    ctx.result(changed, () => `${fields([...describe(changed.license), ['License key', '']])}\n${changed.licenseKey}`);
  },
};

function byId(path: 'revoke' | 'unbind', summary: string, done: (l: LicenseView) => string, final = false): Command {
  return {
    path: `seller licenses ${path}`,
    maxArgs: 1,
    summary,
    usage: `seller licenses ${path} <licenseId>${final ? ' [--yes]' : ''}`,
    ...(final && { details: 'Asks for confirmation on a terminal; --yes (-y) skips the question, and is required without a terminal.' }),
    flags: final ? ['yes'] : [],
    async run(ctx: Context) {
      const [id] = positionals(ctx.args, ['licenseId']);
      const { apiKey } = requireSeller(ctx);
      if (final) await confirm(ctx, `Revoke ${id}? Validation will answer "revoked" from now on; this cannot be undone.`);
      const license = await ctx.api.request<LicenseView>('POST', `/licenses/${encodeURIComponent(id!)}/${path}`, { apiKey });
      ctx.result(license, () => `${done(license)}\n${fields(describe(license))}`);
    },
  };
}

const show: Command = {
  path: 'seller licenses show',
  maxArgs: 1,
  summary: 'show a license: status, expiry, bound machine',
  usage: 'seller licenses show <licenseId>',
  flags: [],
  async run(ctx) {
    const [id] = positionals(ctx.args, ['licenseId']);
    const { apiKey } = requireSeller(ctx);
    const license = await ctx.api.request<LicenseView>('GET', `/licenses/${encodeURIComponent(id!)}`, { apiKey });
    ctx.result(license, () => fields(describe(license)));
  },
};

export const sellerLicenseCommands: Command[] = [
  grant,
  licenseList,
  show,
  entitlements,
  byId('revoke', 'revoke a license (final: validation answers revoked)', (l) => `Revoked ${l.id}.`, true),
  byId('unbind', 'remove the machine binding (the next validation binds again)', (l) => `Unbound ${l.id}.`),
];
