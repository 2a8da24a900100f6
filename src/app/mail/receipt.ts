import { html } from '../../domain/html.ts';
import type { License } from '../../domain/license.ts';
import { formatPrice } from '../../domain/money.ts';
import type { Deps } from '../../ports/deps.ts';
import type { OutboxMail } from '../../ports/mail-repository.ts';
import { mailMessage } from './mail-layout.ts';

/** Why the buyer holds the license: what the receipt says was paid. */
export type ReceiptReason =
  | { kind: 'paid'; amount: number; currency: string }
  | { kind: 'renewal'; amount: number; currency: string }
  | { kind: 'trial' }
  /** A subscription bought with a free trial: nothing charged yet, `amount` every `interval` from the trial's end. */
  | { kind: 'subscription_trial'; amount: number; currency: string; interval: string }
  | { kind: 'grant' }
  /** The seller's resend: the key again, without an amount (a revoked license's says so). */
  | { kind: 'resend'; revoked: boolean };

/** The outbox kinds of the mails about a license (`resend` is counted by the resend limit). */
export type ReceiptKind = 'receipt' | 'resend';

/** What a receipt says besides the license: read before the license is written. */
export interface ReceiptContext {
  to: string;
  seller: string;
  product: string;
  /** The seller's receipt publishable key; null when the seller revoked it. */
  publishableKey: string | null;
  apiBaseUrl: string;
  accountUrl: string;
  /**
   * The link that confirms the checkout's phone as the sign-in phone (src/app/customers/phone-link.ts):
   * only in a paid checkout's receipt to a customer with no confirmed phone, where texts are sent.
   */
  phoneLink?: { url: string; phoneMasked: string };
}

export type ReceiptDeps = Pick<Deps, 'clock' | 'ids' | 'hashing' | 'developers' | 'products' | 'derivedSecrets' | 'settings'>;

/** A receipt for a license about to be written: the store queues it in the license's transaction. */
export type ReceiptFor = (license: License) => OutboxMail;

/**
 * Reads what every receipt of a seller's product says: the seller's and product's names, and the
 * seller's receipt publishable key (its digest stored the first time, so the key authenticates).
 */
export async function receiptContext(deps: ReceiptDeps, developerId: string, productId: string, to: string): Promise<ReceiptContext> {
  const [developer, product] = await Promise.all([deps.developers.findById(developerId), deps.products.get(developerId, productId)]);
  return {
    to,
    seller: developer?.name ?? 'the seller',
    product: product?.name ?? productId,
    publishableKey: await receiptPublishableKey(deps, developerId),
    apiBaseUrl: deps.settings.apiBaseUrl,
    accountUrl: `${deps.settings.apiBaseUrl}/account`,
  };
}

/** The seller's receipt key, registered as one of their publishable keys on first use; null once revoked. */
async function receiptPublishableKey(deps: ReceiptDeps, developerId: string): Promise<string | null> {
  const key = deps.derivedSecrets.receiptPublishableKey(developerId);
  const keyHash = deps.hashing.hash(key);
  let record = await deps.developers.findApiKeyByHash(keyHash);
  if (!record) {
    const fresh = { id: deps.ids.next('key'), developerId, scope: 'publishable' as const, keyHash, createdAt: deps.clock.now(), revokedAt: null, lastUsedAt: null };
    // A concurrent first receipt may have registered it: its digest is unique, read it back.
    record = await deps.developers.addApiKey(fresh).then(() => fresh, () => deps.developers.findApiKeyByHash(keyHash));
  }
  return record && record.revokedAt === null && record.developerId === developerId ? key : null;
}

/** Renders the receipt of `license` for the outbox (`kind` receipt, or resend for the seller's resend). */
export function receiptFor(deps: Pick<Deps, 'clock' | 'ids'>, context: ReceiptContext, reason: ReceiptReason, kind: ReceiptKind = 'receipt'): ReceiptFor {
  return (license) => {
    const message = receiptMessage(context, license, reason);
    return { ...message, id: deps.ids.next('mail'), kind, licenseId: license.id, createdAt: deps.clock.now() };
  };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

function opening(c: ReceiptContext, license: License, reason: ReceiptReason): { headline: string; paid: string } {
  const until = license.expiresAt === null ? 'with no end date' : `until ${day(license.expiresAt)} (UTC)`;
  switch (reason.kind) {
    case 'paid':
      return { headline: `Thank you for buying ${c.product} from ${c.seller}.`, paid: `Paid: ${formatPrice(reason.amount, reason.currency)}` };
    case 'renewal':
      return { headline: `Your ${c.product} subscription from ${c.seller} is renewed.`, paid: `Paid: ${formatPrice(reason.amount, reason.currency)}` };
    case 'trial':
      return { headline: `Your free trial of ${c.product} from ${c.seller} has started.`, paid: `Free trial ${until}` };
    case 'subscription_trial':
      return {
        headline: `Your ${c.product} subscription from ${c.seller} starts with a free trial: nothing was charged.`,
        paid: `Free trial ${until}; then ${formatPrice(reason.amount, reason.currency)} every ${reason.interval}, unless you cancel before`,
      };
    case 'grant':
      return { headline: `${c.seller} gave you a license for ${c.product}.`, paid: `Granted by ${c.seller}: nothing to pay` };
    case 'resend':
      return {
        headline: `${c.seller} sent you your ${c.product} license key again.`,
        paid: reason.revoked ? `This license was revoked by ${c.seller}: its key no longer activates.` : `Sent again at ${c.seller}'s request`,
      };
  }
}

/** Only characters a shell takes literally stay unquoted. */
const shellWord = (value: string) => (/^[A-Za-z0-9_.:/@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`);

/** The key is not in the command: it is pasted when asked, so it stays out of shell history and `ps`. */
function activateCommand(c: ReceiptContext): string {
  const pk = c.publishableKey ? ` --publishable-key ${c.publishableKey}` : '';
  return `licensing activate${pk} --api-url ${shellWord(c.apiBaseUrl)}`;
}

function phoneLinkText(c: ReceiptContext): string {
  if (!c.phoneLink) return '';
  return `
To get your sign-in codes by text, confirm ${c.phoneLink.phoneMasked} (the phone you gave at checkout)
as your sign-in phone; the link works once, for 7 days:
${c.phoneLink.url}
`;
}

function receiptMessage(c: ReceiptContext, license: License, reason: ReceiptReason) {
  const subject = oneLine(`Your ${c.product} license from ${c.seller}`);
  const { headline, paid } = opening(c, license, reason);
  const valid = license.expiresAt === null ? 'Valid: with no end date' : `Valid until: ${day(license.expiresAt)} (UTC)`;
  const command = activateCommand(c);
  const noKey = c.publishableKey ? '' : `Add --publishable-key with ${c.seller}'s publishable key (ask ${c.seller} for it).\n`;
  const text = `${headline}

${paid}
Product: ${c.product}
Seller: ${c.seller}
${valid}

Your license key:
${license.licenseKey}

To activate it on your machine with the licensing command-line program, run:
${command}
and paste the key above when it asks (or pipe it in: licensing activate ... < key-file).
${noKey}
Your licenses and machines: ${c.accountUrl}
${phoneLinkText(c)}
Keep this mail: the license key is your proof of purchase. Never share it.
`;
  const mono = 'font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;word-break:break-all;background:#f4f4f4;padding:8px;border-radius:4px';
  const body = html`<h1 style="font-size:20px;margin:0 0 16px">${headline}</h1>
<p>${paid}</p>
<dl>
<dt style="font-weight:600">Product</dt><dd style="margin:0 0 8px">${c.product}</dd>
<dt style="font-weight:600">Seller</dt><dd style="margin:0 0 8px">${c.seller}</dd>
<dt style="font-weight:600">Valid</dt><dd style="margin:0 0 8px">${license.expiresAt === null ? 'with no end date' : `until ${day(license.expiresAt)} (UTC)`}</dd>
</dl>
<h2 style="font-size:16px">Your license key</h2>
<p style="${mono}">${license.licenseKey}</p>
<h2 style="font-size:16px">Activate it</h2>
<p>With the licensing command-line program, run:</p>
<pre style="${mono};white-space:pre-wrap">${command}</pre>
<p>and paste the key above when it asks (or pipe it in from a file).</p>
${noKey ? html`<p>${noKey}</p>` : ''}
<p><a href="${c.accountUrl}">Your licenses and machines</a></p>
${c.phoneLink ? html`<p>To get your sign-in codes by text, <a href="${c.phoneLink.url}">confirm ${c.phoneLink.phoneMasked} as your sign-in phone</a> (the phone you gave at checkout; the link works once, for 7 days).</p>` : ''}
<p style="color:#555555">Keep this mail: the license key is your proof of purchase. Never share it.</p>`;
  return mailMessage({ to: c.to, subject, text, body });
}
