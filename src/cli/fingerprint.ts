import { machineFingerprint } from '../client/index.ts';
import type { Command } from './context.ts';

/** The value licenses bind to on this machine: the same as the client library computes in an application. */
const fingerprint: Command = {
  path: 'fingerprint',
  summary: "print this machine's fingerprint (what a license binds to)",
  usage: 'fingerprint',
  details: `SHA-256 of host name, user name, OS and architecture, computed exactly as the client library
does in an application on this machine: compare it with the machine a license is bound to
(licensing seller licenses show <id>).`,
  flags: [],
  async run(ctx) {
    const value = await machineFingerprint();
    ctx.result({ fingerprint: value }, value);
  },
};

export const fingerprintCommands: readonly Command[] = [fingerprint];
