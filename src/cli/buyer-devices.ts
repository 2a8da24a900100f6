import { machineFingerprint, productFingerprint } from '../client/index.ts';
import { positionals } from './args.ts';
import { asBuyer, clientFor, requireBuyer } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { CliError } from './errors.ts';
import { table, when } from './output.ts';
import { confirm } from './prompt.ts';

/** One machine of a license, as GET /customer/licenses lists it (docs/activations.md). */
interface Device {
  id: string;
  name: string | null;
  machineFingerprint: string;
  createdAt: number;
  lastSeenAt: number;
}

interface LicenseDevices {
  id: string;
  productId: string;
  productName?: string;
  status: string;
  licenseKey: string;
  maxMachines: number | null;
  activations: Device[];
}

type Marked = Device & { thisMachine: boolean };

/** This machine is bound by its fingerprint for the license's product, or by the legacy one (docs/machine-files.md). */
async function mark(devices: readonly Device[], legacy: string, productId: string): Promise<Marked[]> {
  const current = await productFingerprint(productId);
  return devices.map((d) => ({ ...d, thisMachine: d.machineFingerprint === current || d.machineFingerprint === legacy }));
}
const slots = (count: number, max: number | null) => `${count} of ${max ?? 'unlimited'} machine${max === 1 ? '' : 's'}`;

function devicesTable(devices: readonly Marked[]): string {
  if (devices.length === 0) return '  no machines';
  const rows = devices.map((d) => [d.name ?? '-', d.id, when(d.lastSeenAt), d.thisMachine ? 'this machine' : '']);
  return table(['NAME', 'ID', 'LAST SEEN', ''], rows).replace(/^/gm, '  ');
}

function licenseBlock(license: LicenseDevices & { activations: Marked[] }): string {
  const product = license.productName ?? license.productId;
  const status = license.status === 'active' ? '' : `, ${license.status}`;
  return `${product} (${license.id}${status}): ${slots(license.activations.length, license.maxMachines)}\n${devicesTable(license.activations)}`;
}

const devices: Command = {
  path: 'devices',
  summary: 'list the machines each of your licenses is activated on',
  usage: 'devices',
  details: `For the logged-in buyer (licensing login): every license with its machines, their names, ids and
when they were last seen; "this machine" marks the one this command runs on. Remove one with
licensing devices remove <id>.`,
  flags: [],
  async run(ctx) {
    const fingerprint = await machineFingerprint();
    const { data } = await asBuyer<{ data: LicenseDevices[] }>(ctx, 'GET', '/customer/licenses');
    const licenses = await Promise.all(data.map(async (l) => ({ ...l, activations: await mark(l.activations, fingerprint, l.productId) })));
    ctx.result({ email: requireBuyer(ctx).email, fingerprint, data: licenses }, () =>
      licenses.length === 0 ? 'No licenses yet: licensing buy <productId> --browser' : licenses.map(licenseBlock).join('\n\n'),
    );
  },
};

/**
 * The machine was this one: the license is forgotten here too (config and the library's cache), or
 * the next `licensing status` would validate it and take the freed slot straight back.
 */
async function forgetHere(ctx: Context, licenseKey: string): Promise<boolean> {
  const entry = Object.entries(ctx.config.licenses ?? {}).find(([, stored]) => stored.licenseKey === licenseKey);
  if (!entry) return false;
  await clientFor(ctx, entry[0]).clearCache();
  delete ctx.config.licenses![entry[0]];
  ctx.save();
  return true;
}

const remove: Command = {
  path: 'devices remove',
  maxArgs: 1,
  summary: 'remove a machine from one of your licenses (frees its slot)',
  usage: 'devices remove <activationId> [--yes]',
  details: `Frees the machine's slot at once. Each removal counts against the license's deactivation limit
(the product's, 3 per 30 days unless the seller set another); past it the API refuses (exit 1) and says
when the next one is allowed; the seller can always remove machines. Asks for confirmation on a
terminal; --yes (-y) skips the question, and is required without a terminal.`,
  flags: ['yes'],
  async run(ctx) {
    const [activationId] = positionals(ctx.args, ['activationId']);
    const fingerprint = await machineFingerprint();
    const { data } = await asBuyer<{ data: LicenseDevices[] }>(ctx, 'GET', '/customer/licenses');
    const license = data.find((l) => l.activations.some((a) => a.id === activationId));
    if (!license) throw new CliError(`none of your licenses has a machine ${activationId}: run "licensing devices" for their ids`, 'not_found');
    const [device] = await mark(license.activations.filter((a) => a.id === activationId), fingerprint, license.productId);
    const label = `${device!.name ?? 'the unnamed machine'} (${activationId})${device!.thisMachine ? ', this machine,' : ''}`;
    await confirm(ctx, `Remove ${label} from ${license.productName ?? license.productId}? It counts against the license's deactivation limit.`);
    const path = `/customer/licenses/${encodeURIComponent(license.id)}/activations/${encodeURIComponent(activationId!)}`;
    const left = await asBuyer<{ licenseId: string; maxMachines: number | null; data: Device[] }>(ctx, 'DELETE', path);
    const forgotten = device!.thisMachine && (await forgetHere(ctx, license.licenseKey));
    const remaining = await mark(left.data, fingerprint, license.productId);
    const note = forgotten ? `\nThis machine no longer holds the license ("licensing activate" takes a slot again).` : '';
    ctx.result({ removed: device, licenseId: left.licenseId, maxMachines: left.maxMachines, data: remaining, forgottenHere: forgotten }, () =>
      `Removed ${label.replace(/,$/, '')}: ${slots(remaining.length, left.maxMachines)} in use.${note}\n${devicesTable(remaining)}`,
    );
  },
};

export const buyerDeviceCommands: Command[] = [devices, remove];
