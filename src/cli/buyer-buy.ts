import type { LicenseClient, LicenseDetails, PurchaseOffer } from '../client/index.ts';
import { formatPrice } from '../domain/money.ts';
import { positionals } from './args.ts';
import { CHECK_FLAGS, clientFor, keyClaims, publishableKey, rememberLicense, requireBuyer, requirePublishableKey, sellerJwks, signInExpired } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { CliError, HttpApiError, toCliError, UsageError } from './errors.ts';
import { elapsed, fields, list, when } from './output.ts';
import { ask, openInBrowser, pipedLine } from './prompt.ts';

interface PendingPurchase {
  purchaseId: string;
  otpId: string;
  cardId: string;
  productName: string;
}

/** A purchase whose code was sent by a non-interactive `buy` that ended before the code was known. */
type WithPending = { pendingPurchases?: Record<string, PendingPurchase> };

type Card = PurchaseOffer['cards'][number];
const cardLabel = (c: Card) => `${c.brand} •••• ${c.last4} (expires ${String(c.expMonth).padStart(2, '0')}/${c.expYear})`;

async function chooseCard(ctx: Context, cards: readonly Card[]): Promise<Card> {
  const wanted = ctx.flags.string('card');
  if (wanted !== undefined) {
    const card = cards.find((c) => c.id === wanted || c.last4 === wanted);
    if (!card) throw new UsageError(`no saved card ${wanted}; saved: ${cards.map((c) => `${c.id} (${c.last4})`).join(', ')}`);
    return card;
  }
  if (!ctx.interactive || cards.length === 1) return cards[0]!;
  ctx.note(cards.map((c, i) => `  ${i + 1}) ${cardLabel(c)}`).join('\n'));
  for (;;) {
    const answer = (await ask(`Card [1-${cards.length}, Enter for 1]: `)) || '1';
    const card = cards[Number(answer) - 1];
    if (/^\d+$/.test(answer) && card) return card;
    ctx.note(`Type a number from 1 to ${cards.length}.`);
  }
}

/** The license is now this machine's: remembered for `status`, and listed with the buyer's licenses. */
async function keep(ctx: Context, result: { licenseKey: string; license: LicenseDetails }, productName?: string): Promise<void> {
  const { developerId } = keyClaims(result.licenseKey);
  const pk = publishableKey(ctx, developerId);
  const jwks = await sellerJwks(ctx, developerId).catch(() => undefined);
  rememberLicense(ctx, result.licenseKey, { publishableKey: pk, jwks });
  const buyer = ctx.config.buyer;
  if (buyer) {
    const { license, licenseKey } = result;
    const entry = { ...license, productName: productName ?? license.productName, licenseKey };
    buyer.licenses = [...buyer.licenses.filter((l) => l.id !== license.id), entry];
  }
  ctx.save();
}

function bought(ctx: Context, result: { licenseKey: string; license: LicenseDetails }, productName?: string): void {
  const { license } = result;
  ctx.result(result, () =>
    [
      `Bought ${productName ?? license.productId}. The license is activated on this machine.`,
      fields([
        ['License', license.id],
        ['Features', list(license.features)],
        ['Expires', when(license.expiresAt)],
        ['License key', ''],
      ]),
      result.licenseKey,
    ].join('\n'),
  );
}

async function terminalBuy(ctx: Context, productId: string): Promise<void> {
  const buyer = requireBuyer(ctx);
  const config = ctx.config as typeof ctx.config & WithPending;
  const client = clientFor(ctx, productId);
  client.setIdentityToken(buyer.identityToken);
  let pending = ctx.flags.has('otp') ? config.pendingPurchases?.[productId] : undefined;
  if (ctx.flags.has('otp') && !pending) throw new UsageError(`no purchase of ${productId} is waiting for a code: run "licensing buy ${productId}" first`);
  if (!pending) {
    const offer = await client.purchaseInit(productId);
    if (offer.cards.length === 0) throw new CliError(`no saved card with this seller: buy once in the browser (licensing buy ${productId} --browser)`, 'no_saved_card');
    const card = await chooseCard(ctx, offer.cards);
    const sent = await client.purchaseOtp(offer.purchaseId);
    ctx.note(`Buying ${offer.productName} for ${formatPrice(offer.amount, offer.currency)} with ${cardLabel(card)}.`);
    ctx.note(`A confirmation code was sent to ${sent.phoneMasked}.`);
    pending = { purchaseId: offer.purchaseId, otpId: sent.otpId, cardId: card.id, productName: offer.productName };
    config.pendingPurchases = { ...config.pendingPurchases, [productId]: pending };
    ctx.save();
  }
  for (let attempt = 0; ; attempt++) {
    const otp = attempt === 0 && ctx.flags.string('otp') ? ctx.flags.string('otp')!.trim() : ctx.interactive ? await ask('Code from the text message: ') : attempt === 0 ? await pipedLine() : undefined;
    if (!otp) {
      ctx.result({ bought: false, productId, purchaseId: pending.purchaseId, next: `licensing buy ${productId} --otp <code>` }, `Then run: licensing buy ${productId} --otp <code>`);
      return;
    }
    try {
      const result = await client.purchaseConfirm({ purchaseId: pending.purchaseId, otpId: pending.otpId, otp, cardId: pending.cardId });
      delete config.pendingPurchases![productId];
      await keep(ctx, result, pending.productName);
      bought(ctx, result, pending.productName);
      return;
    } catch (error) {
      const failure = toCliError(error, ctx.apiUrl);
      if (failure instanceof HttpApiError && failure.status === 401) throw signInExpired();
      if (!(ctx.interactive && failure instanceof HttpApiError && failure.code === 'otp_invalid' && attempt < 4)) throw failure;
      ctx.note('That code is not right; try again.');
    }
  }
}

/** Hosted checkout: print (and open) the page, show a live line while polling, keep the key. */
async function browserBuy(ctx: Context, productId: string): Promise<void> {
  const pk = requirePublishableKey(ctx, ctx.config.seller?.developerId);
  const client: LicenseClient = clientFor(ctx, productId, { publishableKey: pk });
  const live = process.stderr.isTTY === true;
  const started = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;
  const abort = new AbortController();
  const onInterrupt = () => abort.abort();
  process.once('SIGINT', onInterrupt);
  const stop = () => {
    if (!timer) return;
    clearInterval(timer);
    timer = undefined;
    process.stderr.write('\n');
  };
  try {
    const result = await client.checkout({
      productId,
      email: ctx.flags.string('email') ?? ctx.config.buyer?.email,
      signal: abort.signal,
      onCheckoutUrl: (url) => {
        ctx.note(`Pay on this page: ${url}`);
        if (ctx.interactive && !ctx.flags.bool('no-open')) openInBrowser(url);
        if (live) timer = setInterval(() => process.stderr.write(`\rWaiting for payment… ${elapsed(Date.now() - started)} `), 1000);
      },
    });
    stop();
    await keep(ctx, result);
    bought(ctx, result);
  } finally {
    stop();
    process.off('SIGINT', onInterrupt);
  }
}

const buy: Command = {
  path: 'buy',
  maxArgs: 1,
  summary: 'buy a product: with a saved card and a texted code, or in the browser',
  usage: `buy <productId> [--card <cardId|last4>] [--otp <code>]
       licensing buy <productId> --browser [--email <email>] [--publishable-key <pk_…>] [--no-open]`,
  details: `With a saved card (after "licensing login"): choose the card (asked on a terminal when there are
several; otherwise --card or the newest), then type the code texted to you. Without a terminal the code
comes from stdin when piped; if nothing is, the command ends after sending it (exit 0) and
"licensing buy <productId> --otp <code>" finishes the purchase.
--browser: prints the checkout page (and opens it on a terminal unless --no-open), waits for the payment
(at most 10 minutes, showing "Waiting for payment… m:ss"), then keeps the key. Needs the seller's
publishable key. Either way the new license is activated on this machine.`,
  flags: ['card', 'otp', 'browser', 'email', 'no-open', ...CHECK_FLAGS],
  async run(ctx) {
    const [productId] = positionals(ctx.args, ['productId']);
    if (ctx.flags.bool('browser')) return browserBuy(ctx, productId!);
    return terminalBuy(ctx, productId!);
  },
};

export const buyerBuyCommands: Command[] = [buy];
