import { hostname } from 'node:os';
import { ActivationLimitError, ApiError, type LicenseClient, type MachineActivation } from '../client/index.ts';
import type { Context } from './context.ts';
import { UsageError } from './errors.ts';

/** The service's rule for an activation's name (docs/activations.md). */
const NAME = /^[^\u0000-\u001f\u007f]{1,100}$/;

/**
 * `--name`, else the host name: how this machine shows in `licensing devices`, on the buyers' page
 * and to the seller. A host name the service would refuse is left out rather than failing.
 */
export function machineName(ctx: Context): string | undefined {
  const given = ctx.flags.string('name');
  if (given !== undefined) {
    if (!NAME.test(given.trim())) throw new UsageError('--name must be 1 to 100 characters without control characters');
    return given.trim();
  }
  const host = hostname().trim().slice(0, 100);
  return NAME.test(host) ? host : undefined;
}

export interface Naming {
  activation?: MachineActivation;
  /** The license is full: the machines holding its slots. */
  limit?: ActivationLimitError;
}

/**
 * POST /licenses/activate with this machine's name, before the check that confirms it: the slot is
 * then taken under that name (a machine that already has one keeps it). Only a full license is
 * this step's to report; any other failure (unreachable, a refused key, revoked) is left to the
 * check that follows, which reports it as it always has.
 */
export async function nameThisMachine(client: LicenseClient, name: string | undefined, naming: Naming): Promise<void> {
  try {
    naming.activation = (await client.activate({ name })).activation;
  } catch (error) {
    if (error instanceof ActivationLimitError) naming.limit = error;
    else if (!(error instanceof ApiError)) throw error;
  }
}

/** What a full license says, with the machines to free one of. */
export function limitLines(limit: ActivationLimitError): string {
  const machines = limit.activations.map((a) => `${a.name ?? 'unnamed'} (${a.id})`).join(', ');
  return `It is active on ${limit.activations.length} of ${limit.maxMachines ?? 'unlimited'} machines: ${machines}.
Free one with "licensing devices remove <id>" (logged in as the buyer: "licensing login"), or ask the seller.`;
}
