import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { DomainError } from '../../domain/errors.ts';
import type { SmsSender } from '../../ports/sms-sender.ts';

export interface TwilioSmsSenderOptions {
  /** `TWILIO_ACCOUNT_SID` (`AC…`). */
  accountSid: string;
  /** `TWILIO_AUTH_TOKEN`: kept only inside the SDK client. */
  authToken: string;
  /** `TWILIO_FROM`: the sending number (E.164) or messaging sender id. */
  from: string;
  /** `TWILIO_API_BASE`, e.g. `http://127.0.0.1:14010`: every SDK request goes there instead of Twilio. */
  apiBase?: string | null;
}

/** A login waits on this call; the SDK's 30 s default would outlive the client's patience. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The SDK's own HTTP client (auth header, form encoding, timeout, no proxy), with every request's
 * origin replaced when an origin is given: Twilio has no host option, so this is how tests reach a
 * local fake. It never prints requests.
 */
export class RedirectingRequestClient extends twilio.RequestClient {
  constructor(
    private readonly origin: string | null,
    options: RequestClient.RequestClientOptions,
  ) {
    super(options);
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    const uri = this.origin ? `${this.origin}${target.pathname}${target.search}` : opts.uri;
    // The SDK's debug level (TWILIO_LOG_LEVEL=debug) prints requests to stdout, beside our JSON logs.
    return super.request<TData>({ ...opts, uri, logLevel: undefined });
  }
}

/** Text messages through Twilio's Messages API. */
export class TwilioSmsSender implements SmsSender {
  /** A Messages API call from a server in Europe or the US: a few hundred milliseconds. */
  readonly expectedSendMs = 400;
  private readonly client: twilio.Twilio;
  private readonly from: string;

  /** Throws when the account sid is not an `AC…` sid or apiBase is not a bare http(s) origin. */
  constructor(options: TwilioSmsSenderOptions) {
    if (!/^AC[0-9a-zA-Z]{8,}$/.test(options.accountSid)) throw new Error('TWILIO_ACCOUNT_SID must be an account sid starting with AC.');
    if (!options.authToken) throw new Error('TWILIO_AUTH_TOKEN is required with TWILIO_ACCOUNT_SID.');
    if (!options.from.trim()) throw new Error('TWILIO_FROM is required with TWILIO_ACCOUNT_SID.');
    const origin = options.apiBase ? parseApiBase(options.apiBase) : null;
    this.client = twilio(options.accountSid, options.authToken, {
      httpClient: new RedirectingRequestClient(origin, { timeout: REQUEST_TIMEOUT_MS }),
      autoRetry: false,
    });
    this.from = options.from.trim();
  }

  async send(to: string, body: string): Promise<void> {
    try {
      await this.client.messages.create({ to, from: this.from, body });
    } catch (error) {
      throw smsFailed(error);
    }
  }
}

/** `http://127.0.0.1:14010` → that origin; anything with a path or query is refused. */
function parseApiBase(apiBase: string): string {
  const url = new URL(apiBase);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/+$/, '') !== '' || url.search) {
    throw new Error('TWILIO_API_BASE must be an origin such as http://127.0.0.1:14010 (no path, no query).');
  }
  return url.origin;
}

/**
 * Twilio's own messages quote the recipient ("The 'To' number +1555… is not valid"); ours names
 * only that the send failed, with Twilio's status and numeric error code for the operator.
 */
function smsFailed(error: unknown): DomainError {
  const e = error as { status?: unknown; code?: unknown } | null;
  const details: Record<string, unknown> = { provider: 'twilio' };
  if (error instanceof twilio.RestException) {
    if (typeof e?.status === 'number') details.status = e.status;
    if (typeof e?.code === 'number') details.code = e.code;
  }
  return new DomainError('sms_failed', 'The text message could not be sent.', details);
}
