/**
 * Outgoing webhooks (Standard Webhooks): where a seller hears about events, and the rules of
 * delivering them. Pure: addresses are checked as text here; resolving names is the sender's job.
 */

/** Every event type the outbox writes (events.ts decides which change makes which), plus the test ping a seller can ask for. */
export const WEBHOOK_EVENT_TYPES = [
  'license.created',
  'license.revoked',
  'license.expired',
  'license.renewed',
  'license.converted',
  'license.updated',
  'activation.created',
  'activation.deleted',
  'order.completed',
  'order.refunded',
  'checkout.expired',
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  'subscription.resumed',
  'subscription.payment_mismatch',
  'trial.ending',
  'lease.created',
  'lease.released',
  'lease.expired',
  'lease.limit_reached',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_LIMITS = {
  endpointsPerDeveloper: 20,
  urlLength: 2048,
  descriptionLength: 500,
  /** After a rotation the old secret keeps signing beside the new one, so receivers can switch over. */
  previousSecretMs: 24 * 3_600_000,
  /** An endpoint whose every delivery failed for this long is disabled by the service. */
  disableAfterFailingMs: 5 * 86_400_000,
  /** Bulk redelivery: the widest range of creation times one call covers (events are kept 30 days). */
  redeliverRangeMs: 31 * 86_400_000,
  /** Bulk redelivery: at most this many failed deliveries per call (hasMore says to call again). */
  redeliverPerCall: 500,
} as const;

export interface WebhookEndpoint {
  id: string;
  developerId: string;
  url: string;
  description: string | null;
  /** null = every event type. */
  events: string[] | null;
  sealedSecret: string;
  enabled: boolean;
  /** 'disabled by you', or why the service disabled it. null while enabled. */
  disabledReason: string | null;
  /** Since when every delivery failed; null once one succeeds. */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The signing secrets an endpoint has: the current one, and for a while after a rotation the old one. */
export interface WebhookSecretSet {
  current: string;
  previous: string | null;
  previousUntil: number | null;
}

/** Secrets that sign a message sent at `now`: the current one, and the old one until its time is up. */
export function signingSecrets(set: WebhookSecretSet, now: number): string[] {
  return set.previous && set.previousUntil !== null && now < set.previousUntil ? [set.current, set.previous] : [set.current];
}

export const ENDPOINT_DISABLED_BY_SELLER = 'disabled by you';
export const ENDPOINT_DISABLED_FAILING = 'every delivery failed for 5 days';

/** The event types that are not ours, for the 400 that names them. */
export function unknownEventTypes(events: readonly string[]): string[] {
  return events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
}

/**
 * What is wrong with an endpoint's URL, or null. https only, unless private addresses are allowed
 * (a development setting); no credentials; no literal private or loopback address. A name is
 * resolved by the use case that registers it, and again before each delivery (resolvedAddressProblem).
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > WEBHOOK_LIMITS.urlLength) return `url must be at most ${WEBHOOK_LIMITS.urlLength} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute https:// URL.';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'url must start with https://.';
  if (url.username || url.password) return 'url must not contain credentials; authenticate receipts with the signature.';
  if (url.hash) return 'url must not have a fragment.';
  if (!allowPrivate && isPrivateHost(url.hostname)) return 'url must not point at a private, loopback or link-local address.';
  return null;
}

/** The URL's host as an address or a name: without the brackets of an IPv6 literal, without a final dot. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
}

/** An IPv4 or IPv6 address written out (as urlHost gives it), rather than a name to resolve. */
export function isAddressLiteral(host: string): boolean {
  return ipv4(host) !== null || (host.includes(':') && ipv6Groups(host) !== null);
}

/**
 * The one answer for a host that may not be reached, whether it did not resolve or resolved to an
 * internal address. Which of the two, and which address, is not said: sellers read it (a 400 at
 * registration, the delivery log), and the service's own resolver may know internal names that
 * they must not be able to map through it.
 */
export function unreachableHostProblem(host: string): string {
  return `${host} does not resolve to public addresses only (it does not resolve, or an address of it is private, loopback or otherwise internal)`;
}

/**
 * Why the addresses a name resolved to may not be reached, or null: every one is checked, since a
 * client may connect to any of them. An empty answer is a failure too.
 */
export function resolvedAddressProblem(host: string, addresses: readonly string[]): string | null {
  return addresses.length === 0 || addresses.some(isPrivateAddress) ? unreachableHostProblem(host) : null;
}

/** Host names that can only mean this machine or its network, whatever DNS says. */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  return isPrivateAddress(host);
}

/**
 * Addresses a webhook must never reach, written in any form. IPv4: "this network" 0/8, private
 * (RFC 1918), loopback, CGNAT 100.64/10, link-local 169.254/16 (cloud metadata), IETF protocol
 * assignments 192.0.0/24, documentation (192.0.2/24, 198.51.100/24, 203.0.113/24), the 6to4 relay
 * 192.88.99/24, benchmarking 198.18/15, multicast 224/4, reserved 240/4 and broadcast.
 * IPv6: only global unicast (2000::/3) may be reached, less what in it is not a public host:
 * 6to4 2002::/16 and Teredo 2001::/32 (they tunnel to an IPv4 address of the sender's choosing),
 * documentation 2001:db8::/32 and 3fff::/20, ORCHID 2001:10::/28 and 2001:20::/28, benchmarking
 * 2001:2::/48. An IPv4 address embedded in IPv6 is judged as the IPv4 address: mapped
 * (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d); the deprecated
 * IPv4-compatible ::a.b.c.d, the local NAT64 64:ff9b:1::/48 and everything else are refused.
 * Names that are not addresses answer false; text with a colon that is no IPv6 address answers true.
 */
export function isPrivateAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = ipv4(a);
  if (v4) return privateV4(v4);
  if (!a.includes(':')) return false;
  const g = ipv6Groups(a);
  if (!g) return true; // unparseable as IPv6 (a zone id, say) yet has colons: refuse rather than guess
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = () => privateV4([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]);
  if (zero(0, 5) && g[5] === 0xffff) return embedded(); // ::ffff:0:0/96, mapped
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return embedded(); // ::ffff:0:0:0/96, translated (RFC 2765)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return embedded(); // 64:ff9b::/96, NAT64
  const [first, second] = [g[0]!, g[1]!];
  if ((first & 0xe000) !== 0x2000) return true; // outside global unicast: ::/96, ::1, fc00::/7, fe80::/10, ff00::/8, 64:ff9b:1::/48…
  if (first === 0x2002) return true; // 6to4
  if (first === 0x2001 && (second === 0 || second === 0xdb8 || (second & 0xfff0) === 0x0010 || (second & 0xfff0) === 0x0020)) return true; // Teredo, documentation, ORCHID
  if (first === 0x2001 && second === 2 && g[2] === 0) return true; // benchmarking 2001:2::/48
  if (first === 0x3fff && second < 0x1000) return true; // 3fff::/20, documentation
  return false;
}

function ipv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function privateV4([a, b, c]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || a! >= 224 || (a === 100 && b! >= 64 && b! < 128) || (a === 169 && b === 254)
    || (a === 172 && b! >= 16 && b! < 32) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19))
    || (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 192 && b === 88 && c === 99)
    || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113);
}

function ipv6Groups(text: string): number[] | null {
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes its two hex groups, so one parser reads both forms.
  const withTail = text.replace(/(\d+\.\d+\.\d+\.\d+)$/, (dotted) => {
    const v4 = ipv4(dotted);
    return v4 ? `${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}` : 'x';
  });
  const [left, right, extra] = withTail.split('::');
  if (extra !== undefined) return null;
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const l = parse(left);
  const r = parse(right);
  const missing = 8 - l.length - r.length;
  if ((right === undefined ? missing !== 0 : missing < 1) || [...l, ...r].some(Number.isNaN)) return null;
  return [...l, ...Array<number>(right === undefined ? 0 : missing).fill(0), ...r];
}

/** A delivery waits for its next attempt until one succeeds or the schedule below is spent. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Standard Webhooks' schedule: the delay before attempt n+1 after n failed attempts. Ten attempts
 * (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h) over about three days; then the
 * delivery has failed.
 */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000] as const;

/**
 * When to try again after `attempts` failed attempts, or null when the schedule is spent. Jitter of
 * up to ±10% (random in [0, 1)) spreads the retries of a burst of events.
 */
export function nextAttemptAt(now: number, attempts: number, random: number, schedule: readonly number[] = RETRY_SCHEDULE_MS): number | null {
  const delay = schedule[attempts - 1];
  if (delay === undefined) return null;
  return now + Math.round(delay * (0.9 + 0.2 * random));
}
