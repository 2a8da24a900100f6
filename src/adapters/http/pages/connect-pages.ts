import { html } from './html.ts';
import { ICONS, layout } from './layout.ts';

export interface ConnectAuthorizeInput {
  /** Where Authorize goes: the callback with a sandbox code and the state. */
  authorizeUrl: string;
  /** Where Cancel goes: the callback with error=access_denied and the state. */
  denyUrl: string;
}

/** The sandbox's stand-in for Stripe's Connect authorize page. */
export function connectAuthorizePage({ authorizeUrl, denyUrl }: ConnectAuthorizeInput): string {
  return layout({
    title: 'Connect a sandbox payment account',
    sandbox: true,
    body: html`<h1>Connect a payment account</h1>
<p class="muted">The licensing service asks to take payments for you.</p>
<p>Authorizing lets it:</p>
<ul>
<li>open hosted checkout pages for your products, on your account;</li>
<li>learn when a buyer has paid, so it can issue their license;</li>
<li>keep the buyer's card on your account for later one-step purchases.</li>
</ul>
<a class="button primary" href="${authorizeUrl}">Authorize</a>
<a class="button secondary" href="${denyUrl}">Cancel</a>
<div class="note"><strong>This is a sandbox:</strong> it stands in for Stripe's authorize page. A sandbox account is
made for you; no money moves and nothing leaves this machine.</div>`,
  });
}

/** Shown by the Connect callback once the account is stored. */
export function connectedPage({ accountId }: { accountId: string }): string {
  return layout({
    title: 'Connected',
    body: html`<div class="center">${ICONS.check}
<h1>Connected</h1>
<p class="muted">Your payment account <code>${accountId}</code> is connected. You can close this tab.</p></div>`,
  });
}
