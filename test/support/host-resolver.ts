import type { HostResolver } from '../../src/ports/host-resolver.ts';

/** A public address (outside every range the webhook block list holds) that tests' names resolve to by default. */
export const PUBLIC_ADDRESS = '93.184.215.14';

/**
 * DNS for tests (nothing leaves 127.0.0.1): each name answers what `table` says, a function of how
 * often it was asked (to play a rebinding resolver), or a public address when it is not listed;
 * `null` fails like an unknown name. Every question is recorded in `asked`.
 */
export class TableResolver implements HostResolver {
  readonly asked: string[] = [];

  constructor(readonly table: Record<string, string[] | null | ((nth: number) => string[])> = {}) {}

  async resolve(host: string): Promise<string[]> {
    this.asked.push(host);
    const entry = this.table[host];
    if (entry === null) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    if (typeof entry === 'function') return entry(this.asked.filter((h) => h === host).length);
    return entry ?? [PUBLIC_ADDRESS];
  }
}
