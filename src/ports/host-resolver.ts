/**
 * Names to the addresses they resolve to now. Webhook endpoints are checked with it when registered,
 * and the sender resolves through it once per attempt, then connects to the address it checked.
 */
export interface HostResolver {
  /** Every address the name resolves to (IPv4 and IPv6, in the resolver's order). Rejects when it cannot resolve. */
  resolve(host: string): Promise<string[]>;
}
