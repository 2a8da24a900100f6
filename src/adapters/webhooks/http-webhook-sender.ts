import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../../domain/webhook-endpoint.ts';
import type { WebhookSender } from '../../ports/webhook-secrets.ts';
import { standardWebhookSignature } from './standard-webhooks-signature.ts';

export interface SenderOptions {
  /** The whole request, answer included (WEBHOOK_TIMEOUT_SECONDS, default 10 s). */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: loopback and private addresses may be reached (development, tests). */
  allowPrivateAddresses: boolean;
  userAgent?: string;
}

/** At most this much of an answer is read, and at most this much of it kept in the log. */
const ANSWER_BYTES = 4096;
const LOGGED_CHARS = 500;

type Result = Awaited<ReturnType<WebhookSender['send']>>;

/**
 * POSTs one signed webhook. Before each request the host's addresses are resolved and every one
 * checked (DNS may have changed since registration); redirects are not followed (a 3xx is a
 * failure), and only the first few KB of the answer are read.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: SenderOptions) {}

  async send(request: { url: string; messageId: string; timestampSeconds: number; body: string; secrets: string[] }): Promise<Result> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): Result => ({ status, error, durationMs: Math.round(performance.now() - started) });
    const blocked = await this.blockedAddress(request.url);
    if (blocked) return done(null, blocked);
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
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

  /** Why the URL's host may not be reached, or null. DNS rebinding between this check and the connect remains possible (docs/webhooks.md). */
  private async blockedAddress(url: string): Promise<string | null> {
    if (this.options.allowPrivateAddresses) return null;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      // Bounded like the request: a resolver that never answers must not hold a sender slot.
      const resolved = isIP(host) ? [{ address: host }] : await withTimeout(lookup(host, { all: true, verbatim: true }), this.options.timeoutMs);
      addresses = resolved.map((a) => a.address);
    } catch {
      return `could not resolve ${host}`;
    }
    const bad = addresses.find(isPrivateAddress);
    return bad ? `refused: ${host} resolves to a private or loopback address (${bad})` : null;
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('resolver timeout')), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
