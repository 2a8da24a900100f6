import { FINGERPRINT_ENV, machineFingerprint, productFingerprint } from '../client/index.ts';
import type { Command } from './context.ts';

/** The values licenses bind to on this machine: the same as the client library computes in an application. */
const fingerprint: Command = {
  path: 'fingerprint',
  summary: "print this machine's fingerprint (what a license binds to)",
  usage: 'fingerprint [--product <prod_…>]',
  details: `With --product: what applications of that product bind to on this machine, computed exactly as
the client library does: ${FINGERPRINT_ENV} when set, else SHA-256 of the product and the operating
system's machine id (/etc/machine-id, IOPlatformUUID, MachineGuid), which a host-name change keeps.
Always: the legacy fingerprint (SHA-256 of host name, user name, OS and architecture), which
applications used before and which a binding moves from (docs/machine-files.md, "Migration").
Compare them with the machines a license is bound to (licensing seller licenses show <id>).`,
  flags: ['product'],
  async run(ctx) {
    const productId = ctx.flags.string('product');
    const legacyFingerprint = await machineFingerprint();
    const value = productId ? await productFingerprint(productId) : legacyFingerprint;
    ctx.result(productId ? { fingerprint: value, productId, legacyFingerprint } : { fingerprint: value, legacyFingerprint }, value);
  },
};

export const fingerprintCommands: readonly Command[] = [fingerprint];
