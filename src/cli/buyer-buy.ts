import type { PurchaseOffer } from '../client/index.ts';
import { formatPrice } from '../domain/money.ts';
import { keepBought } from './activation.ts';
import { positionals } from './args.ts';
import { browserBuy } from './buyer-browser.ts';
import { CHECK_FLAGS, clientFor, requireBuyer, signInExpired } from './buyer-common.ts';
import type { Command, Context } from './context.ts';
import { CliError, HttpApiError, toCliError, UsageError } from './errors.ts';
import { ask, pipedLine } from './prompt.ts';

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
      await keepBought(ctx, result, pending.productName);
      return;
    } catch (error) {
      const failure = toCliError(error, ctx.apiUrl);
      if (failure instanceof HttpApiError && failure.status === 401) throw signInExpired();
      if (!(ctx.interactive && failure instanceof HttpApiError && failure.code === 'otp_invalid' && attempt < 4)) throw failure;
      ctx.note('That code is not right; try again.');
    }
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
(at most 10 minutes, showing "Waiting for payment… m:ss"; Cancel on the page ends the wait, exit 1),
then keeps the key. Needs the seller's publishable key.
Either way the key is kept and checked online once, which binds it to this machine: "activated on this
machine" is printed only when the API said valid for it (without the seller's publishable key, or with
the API unreachable, it says what to run to activate it).`,
  flags: ['card', 'otp', 'browser', 'email', 'no-open', ...CHECK_FLAGS],
  async run(ctx) {
    const [productId] = positionals(ctx.args, ['productId']);
    if (ctx.flags.bool('browser')) return browserBuy(ctx, productId!);
    return terminalBuy(ctx, productId!);
  },
};

export const buyerBuyCommands: Command[] = [buy];
