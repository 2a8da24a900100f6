import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../../ports/host-resolver.ts';

/** The system's resolver (getaddrinfo, so /etc/hosts too), every address, bounded in time. */
export class DnsHostResolver implements HostResolver {
  constructor(private readonly timeoutMs: number) {}

  async resolve(host: string): Promise<string[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A resolver that never answers must not hold a request or a sender slot.
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('resolver timeout')), this.timeoutMs)));
    try {
      const answers = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
      return answers.map((a) => a.address);
    } finally {
      clearTimeout(timer);
    }
  }
}
