import type { Receipt } from '../../../app/customers/customer-orders.ts';
import { formatPrice } from '../../../domain/money.ts';
import { html, SafeHtml } from './html.ts';
import { ICONS, layout } from './layout.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const RECEIPT_STYLE = new SafeHtml(`<style>
table.receipt{width:100%;border-collapse:collapse;margin:1rem 0}
table.receipt th,table.receipt td{text-align:left;padding:.5rem 0;border-bottom:1px solid var(--line);vertical-align:top}
table.receipt th{font-weight:600;padding-right:1rem;white-space:nowrap}
table.receipt td{overflow-wrap:anywhere}
</style>`);

/** A sandbox order's receipt (docs/customers.md): what was paid, to whom, when, and what went back. */
export function receiptPage({ order, customerEmail }: Receipt): string {
  const refunded = order.amountRefunded > 0 ? html`<tr><th scope="row">Refunded</th><td>${formatPrice(order.amountRefunded, order.currency)}</td></tr>` : '';
  return layout({
    title: `Receipt ${order.id}`,
    sandbox: true,
    body: html`${RECEIPT_STYLE}<h1>Receipt</h1>
<p class="muted">${order.sellerName} · ${order.productName}</p>
<table class="receipt">
<tr><th scope="row">Amount paid</th><td>${formatPrice(order.amount, order.currency)}</td></tr>
${refunded}
<tr><th scope="row">Date</th><td>${day(order.createdAt)} (UTC)</td></tr>
<tr><th scope="row">Order</th><td><code>${order.id}</code></td></tr>
<tr><th scope="row">License</th><td><code>${order.licenseId}</code></td></tr>
<tr><th scope="row">Paid by</th><td>${customerEmail}</td></tr>
</table>
<p class="note">A sandbox payment: no money moved.</p>`,
  });
}

export interface CardFormView {
  action: string;
  productName: string;
  error?: string;
  saved?: { brand: string; last4: string };
}

/** The sandbox's card form: the new card a subscription renews with, the sandbox checkout's test numbers. */
export function cardFormPage(view: CardFormView): string {
  if (view.saved) {
    return layout({
      title: 'Card changed',
      sandbox: true,
      body: html`<div class="center">${ICONS.check}<h1>Card changed</h1>
<p class="muted">${view.productName} now renews with your ${view.saved.brand} card ending in ${view.saved.last4}. You can close this tab.</p></div>`,
    });
  }
  const invalid = view.error ? 'true' : 'false';
  return layout({
    title: 'Change your card',
    sandbox: true,
    body: html`<h1>Change your card</h1>
<p class="muted">The card ${view.productName} renews with.</p>
${view.error ? html`<div class="alert" role="alert" id="card-error">${view.error}</div>` : ''}
<form method="post" action="${view.action}">
<label for="cardNumber">Card number <span class="hint">A test card: 4242 4242 4242 4242 pays.</span></label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-invalid="${invalid}"${view.error ? html` aria-describedby="card-error"` : ''}>
<button type="submit" class="button primary">Save card</button>
</form>`,
  });
}
