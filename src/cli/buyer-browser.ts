import type { CheckoutProgress } from '../client/index.ts';
import { keepBought } from './activation.ts';
import { clientFor, productNameOf, requirePublishableKey, sellerOf } from './buyer-common.ts';
import type { Context } from './context.ts';
import { CliError, toCliError } from './errors.ts';
import { elapsed } from './output.ts';
import { openInBrowser } from './prompt.ts';

/** The name of what a completed session bought, as its status tells it (older services do not). */
async function boughtName(ctx: Context, sessionId: string | undefined): Promise<string | undefined> {
  if (!sessionId) return undefined;
  try {
    const status = await ctx.api.request<{ license?: { productName?: unknown } }>('GET', `/checkout/status/${encodeURIComponent(sessionId)}`);
    const name = status.license?.productName;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The session ended unpaid: the buyer pressed Cancel on the page (which ends it), or 30 minutes passed. */
function endedUnpaid(error: unknown, ctx: Context): unknown {
  const failure = toCliError(error, ctx.apiUrl);
  if (failure.code !== 'checkout_expired') return error;
  return new CliError('the checkout ended without a payment: it was cancelled on the payment page, or not paid in time. Nothing was charged', 'checkout_expired');
}

/** A live "Waiting for payment… m:ss" line on a terminal; nothing when stderr is not one. */
function waitingLine() {
  const started = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    start() {
      if (process.stderr.isTTY !== true) return;
      timer = setInterval(() => process.stderr.write(`\rWaiting for payment… ${elapsed(Date.now() - started)} `), 1000);
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      process.stderr.write('\n');
    },
  };
}

/** Hosted checkout: print (and open) the page, show a live line while polling, keep and activate the key. */
export async function browserBuy(ctx: Context, productId: string): Promise<void> {
  const seller = ctx.flags.string('developer') ?? sellerOf(ctx, productId) ?? ctx.config.seller?.developerId;
  const pk = requirePublishableKey(ctx, seller);
  const client = clientFor(ctx, productId, { publishableKey: pk });
  const known = productNameOf(ctx, productId);
  const line = waitingLine();
  const abort = new AbortController();
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  let sessionId: string | undefined;
  try {
    const result = await client.checkout({
      productId,
      email: ctx.flags.string('email') ?? ctx.config.buyer?.email,
      signal: abort.signal,
      onProgress: (progress: CheckoutProgress) => (sessionId = progress.sessionId),
      onCheckoutUrl: (url) => {
        ctx.note(`Pay${known ? ` for ${known}` : ''} on this page: ${url}`);
        if (ctx.interactive && !ctx.flags.bool('no-open')) openInBrowser(url);
        line.start();
      },
    });
    line.stop();
    await keepBought(ctx, result, result.license.productName ?? (await boughtName(ctx, sessionId)) ?? known);
  } catch (error) {
    throw endedUnpaid(error, ctx);
  } finally {
    line.stop();
    process.off('SIGINT', onInterrupt);
  }
}
