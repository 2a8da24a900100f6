import type { CheckoutStatus as ServerCheckoutStatus } from '../domain/checkout-session.ts';
import { CheckoutError } from './errors.ts';
import { describe, type Http } from './http.ts';
import { detailsFromServer } from './license-details.ts';
import { CHECKOUT_POLL_INTERVAL_MS, CHECKOUT_TIMEOUT_MS, type LicenseDetails, type Sleep } from './types.ts';

/** The service's checkout statuses, and `started` before the first poll answers. */
export type CheckoutStatus = 'started' | ServerCheckoutStatus;

export interface CheckoutProgress {
  status: CheckoutStatus;
  sessionId: string;
  checkoutUrl: string;
  elapsedMs: number;
}

export interface CheckoutOptions {
  productId: string;
  email?: string;
  successUrl?: string;
  cancelUrl?: string;
  signal?: AbortSignal;
  onProgress?: (progress: CheckoutProgress) => void;
  /** e.g. open a browser */
  onCheckoutUrl?: (url: string) => void | Promise<void>;
}

export interface CheckoutContext {
  http: Http;
  apiKey: string;
  now: () => number;
  sleep: Sleep;
}

type Completed = { licenseKey: string; license: LicenseDetails };

/** Browser flow: init, hand out the URL, then poll every 2 s for at most 10 minutes. */
export async function runCheckout(ctx: CheckoutContext, options: CheckoutOptions): Promise<Completed> {
  const { signal } = options;
  const started = ctx.now();
  const session = await init(ctx, options);
  const report = (status: CheckoutStatus) =>
    options.onProgress?.({ status, sessionId: session.sessionId, checkoutUrl: session.checkoutUrl, elapsedMs: ctx.now() - started });
  report('started');
  await options.onCheckoutUrl?.(session.checkoutUrl);
  for (;;) {
    await pause(ctx, signal);
    const status = await poll(ctx, session.sessionId, signal);
    if (status) report(status.status);
    if (status?.status === 'complete') return { licenseKey: status.licenseKey, license: status.license };
    if (status?.status === 'expired') throw new CheckoutError('expired', 'The checkout session expired before the payment was completed.');
    if (ctx.now() - started >= CHECKOUT_TIMEOUT_MS) throw new CheckoutError('timeout', 'No payment was completed within 10 minutes.');
  }
}

async function init(ctx: CheckoutContext, options: CheckoutOptions): Promise<{ sessionId: string; checkoutUrl: string }> {
  throwIfAborted(options.signal);
  const { productId, email, successUrl, cancelUrl } = options;
  const answer = await ctx.http.send('POST', '/checkout/init', {
    apiKey: ctx.apiKey,
    body: { productId, email, successUrl, cancelUrl },
    signal: options.signal,
  });
  throwIfAborted(options.signal);
  if (answer.kind === 'error') throw answer.error;
  if (answer.kind === 'unreachable') throw new CheckoutError('http', `Could not start the checkout: ${describe(answer.cause)}`, { cause: answer.cause });
  const body = answer.body as { sessionId?: unknown; checkoutUrl?: unknown } | undefined;
  if (typeof body?.sessionId !== 'string' || typeof body.checkoutUrl !== 'string') {
    throw new CheckoutError('http', 'The licensing service answered checkout init with something unexpected.');
  }
  return { sessionId: body.sessionId, checkoutUrl: body.checkoutUrl };
}

type Polled = { status: Exclude<ServerCheckoutStatus, 'complete'> } | ({ status: 'complete' } & Completed);

/** One poll. A network blip or a 5xx is not the end of a checkout: the next poll tries again. */
async function poll(ctx: CheckoutContext, sessionId: string, signal?: AbortSignal): Promise<Polled | null> {
  const answer = await ctx.http.send('GET', `/checkout/status/${encodeURIComponent(sessionId)}`, { signal });
  throwIfAborted(signal);
  if (answer.kind === 'unreachable') return null;
  if (answer.kind === 'error') {
    if (answer.error.status >= 500) return null;
    throw answer.error;
  }
  const body = answer.body as { status?: unknown; licenseKey?: unknown; license?: Record<string, unknown> } | undefined;
  if (body?.status === 'pending' || body?.status === 'expired') return { status: body.status };
  if (body?.status === 'complete' && typeof body.licenseKey === 'string' && body.license) {
    return { status: 'complete', licenseKey: body.licenseKey, license: detailsFromServer(body.license) };
  }
  throw new CheckoutError('http', 'The licensing service answered a checkout poll with something unexpected.');
}

async function pause(ctx: CheckoutContext, signal?: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  try {
    await ctx.sleep(CHECKOUT_POLL_INTERVAL_MS, signal);
  } catch (error) {
    if (signal?.aborted) throw aborted();
    throw error;
  }
  throwIfAborted(signal);
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw aborted();
}

function aborted(): CheckoutError {
  return new CheckoutError('aborted', 'The checkout was cancelled.');
}

/** setTimeout that an AbortSignal cuts short. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
