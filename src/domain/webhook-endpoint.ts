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
 * (a development setting); no credentials; no literal private or loopback address (names are
 * resolved and checked again at each delivery).
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

/** Host names that can only mean this machine or its network, whatever DNS says. */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  return isPrivateAddress(host);
}

/**
 * Addresses a webhook must never reach: loopback, private (RFC 1918), CGNAT, link-local (and the
 * cloud metadata address in it), multicast, reserved, unspecified; IPv6 loopback, unique-local,
 * link-local, multicast, and IPv4-mapped or NAT64 forms of the IPv4 ones. Names that are not
 * addresses answer false.
 */
export function isPrivateAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = ipv4(a);
  if (v4) return privateV4(v4);
  if (!a.includes(':')) return false;
  const groups = ipv6Groups(a);
  if (!groups) return true; // unparseable as IPv6 yet has colons: refuse rather than guess
  if (groups.every((g) => g === 0)) return true; // ::
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true; // ::1
  const first = groups[0]!;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00) return true;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0);
  const nat64 = first === 0x64 && groups[1] === 0xff9b;
  if (mapped || nat64) return privateV4([groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255]);
  return false;
}

function ipv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function privateV4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || a! >= 224 || (a === 100 && b! >= 64 && b! < 128) || (a === 169 && b === 254)
    || (a === 172 && b! >= 16 && b! < 32) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19));
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
