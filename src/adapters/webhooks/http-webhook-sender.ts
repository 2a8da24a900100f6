import { isAddressLiteral, resolvedAddressProblem, unreachableHostProblem, urlHost } from '../../domain/webhook-endpoint.ts';
import type { HostResolver } from '../../ports/host-resolver.ts';
import type { WebhookSender } from '../../ports/webhook-secrets.ts';
import { DnsHostResolver } from './dns-host-resolver.ts';
import { standardWebhookSignature } from './standard-webhooks-signature.ts';

export interface SenderOptions {
  /** The whole request, answer included (WEBHOOK_TIMEOUT_SECONDS, default 10 s); name resolution too. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: loopback and private addresses may be reached (development, tests). */
  allowPrivateAddresses: boolean;
  userAgent?: string;
  /** Names to addresses: the system's resolver unless given (tests answer their own). */
  resolver?: HostResolver;
  /** Certificate authorities (PEM) trusted instead of the system's: tests only. */
  ca?: string;
}

/** At most this much of an answer is read, and at most this much of it kept in the log. */
const ANSWER_BYTES = 4096;
const LOGGED_CHARS = 500;

type Result = Awaited<ReturnType<WebhookSender['send']>>;

/** Where a request to `url` goes once its host resolved to `address`: that address, with the name kept for HTTP and TLS. */
export interface PinnedTarget {
  /** The URL with its host replaced by the address (bracketed when IPv6): what is connected to. */
  url: string;
  /** The Host header: the URL's own host (and port, when not the default). */
  host: string;
  /** For https to a name: the TLS server name (SNI), and the name the certificate must be valid for. */
  serverName: string | null;
}

export function pinnedTarget(url: URL, address: string): PinnedTarget {
  const pinned = new URL(url.href);
  pinned.hostname = address.includes(':') ? `[${address}]` : address;
  const name = urlHost(url);
  return { url: pinned.href, host: url.host, serverName: url.protocol === 'https:' && !isAddressLiteral(name) ? name : null };
}

/**
 * POSTs one signed webhook. The host is resolved once per attempt and every address checked (DNS
 * may have changed since registration); the request then goes to the first of those very addresses,
 * with the name as Host and, over TLS, as server name and certificate name: a second lookup, which
 * a rebinding DNS server could answer differently, never happens. Redirects are not followed (a 3xx
 * is a failure), and only the first few KB of the answer are read.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly resolver: HostResolver;

  constructor(private readonly options: SenderOptions) {
    this.resolver = options.resolver ?? new DnsHostResolver(options.timeoutMs);
  }

  async send(request: { url: string; messageId: string; timestampSeconds: number; body: string; secrets: string[] }): Promise<Result> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): Result => ({ status, error, durationMs: Math.round(performance.now() - started) });
    const target = await this.target(request.url);
    if (typeof target === 'string') return done(null, target);
    try {
      const tls = { ...(target.serverName !== null && { serverName: target.serverName }), ...(this.options.ca !== undefined && { ca: this.options.ca }) };
      const response = await fetch(target.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        tls,
        headers: {
          host: target.host,
          'content-type': 'application/json',
          'user-agent': this.options.userAgent ?? 'licensing-webhooks/1',
          'webhook-id': request.messageId,
          'webhook-timestamp': String(request.timestampSeconds),
          'webhook-signature': standardWebhookSignature(request.secrets, request.messageId, request.timestampSeconds, request.body),
        },
        body: request.body,
      });
      const answer = await readSome(response);
      if (response.status >= 200 && response.status < 300) return done(response.status, null);
      return done(response.status, `HTTP ${response.status}${answer ? `: ${answer.slice(0, LOGGED_CHARS)}` : ''}`);
    } catch (error) {
      const name = (error as Error)?.name;
      return done(null, name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${this.options.timeoutMs / 1000} s` : `request failed: ${String((error as Error)?.message ?? error).slice(0, 200)}`);
    }
  }

  /** The pinned target, or why the URL's host may not be reached. */
  private async target(raw: string): Promise<PinnedTarget | string> {
    if (!URL.canParse(raw)) return 'refused: the endpoint URL is not a URL';
    const url = new URL(raw);
    const host = urlHost(url);
    // Not resolving and resolving to an internal address read alike in the (seller-visible) log.
    const refused = `refused: ${unreachableHostProblem(host)}`;
    let addresses: string[];
    try {
      addresses = isAddressLiteral(host) ? [host] : await this.resolver.resolve(host);
    } catch {
      return refused;
    }
    if (addresses.length === 0) return refused;
    if (!this.options.allowPrivateAddresses && resolvedAddressProblem(host, addresses)) return refused;
    // Only an address written out can be pinned (an IPv6 zone such as %eth0 cannot go in a URL).
    const address = addresses[0]!;
    return isAddressLiteral(address.toLowerCase()) ? pinnedTarget(url, address) : refused;
  }
}

async function readSome(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, ANSWER_BYTES)).replace(/[\u0000-\u001f]/g, ' ').trim();
}
