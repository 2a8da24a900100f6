import { html, SafeHtml } from './html.ts';
import { layout } from './layout.ts';
import { ACCOUNT_SCRIPT } from './account-script.ts';

const ACCOUNT_STYLE = new SafeHtml(`<style>
.key{width:100%;font:.8125rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;
padding:.6rem .7rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--text);resize:vertical}
.license{border-top:1px solid var(--line);margin-top:1.5rem;padding-top:1rem}
.license h2{font-size:1.125rem;margin:0 0 .25rem}
.license h3{font-size:1rem;margin:1.25rem 0 .25rem}
ul.machines{list-style:none;padding:0;margin:.5rem 0}
ul.machines li{display:flex;gap:.75rem;align-items:center;justify-content:space-between;padding:.6rem 0;border-bottom:1px solid var(--line)}
ul.machines li:last-child{border-bottom:0}
ul.machines .button{width:auto;margin:0;padding:.45rem .9rem;font-size:.9375rem;flex:none}
.machine-name{display:block;overflow-wrap:anywhere}
.note[hidden],.alert[hidden]{display:none}
ul.items{list-style:none;padding:0;margin:.5rem 0}
ul.items .item{padding:.75rem 0;border-bottom:1px solid var(--line)}
ul.items .item:last-child{border-bottom:0}
ul.items h3{font-size:1rem;margin:0}
ul.items p{margin:.25rem 0}
ul.items .hint{display:block}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
.actions .button{width:auto;flex:1 1 10rem;margin-top:.5rem}
dialog{border:1px solid var(--line);border-radius:12px;background:var(--card);color:var(--text);padding:1.25rem;max-width:min(26rem,calc(100vw - 2rem))}
dialog::backdrop{background:rgba(0,0,0,.45)}
dialog h2{font-size:1.125rem;margin:0 0 .5rem}
a{color:var(--accent)}
</style>`);

/**
 * The buyer's page (docs/activations.md, "Buyer self-service"; docs/customers.md): e-mail, then the
 * code (texted to a confirmed phone, or e-mailed), then their licenses with keys and machines, their
 * subscriptions (cancel, resume, change card), their orders with receipts, and their sign-in phone
 * to add or change. Remove and Cancel ask first, in a modal <dialog>. The markup is static; the script (run by the response's
 * nonce) calls the JSON API and keeps the identity token in sessionStorage only, so there is no
 * cookie for another site to ride on.
 */
export function accountPage(nonce: string): string {
  return layout({
    title: 'Your account',
    script: { nonce, source: ACCOUNT_SCRIPT },
    body: html`${ACCOUNT_STYLE}<h1>Your account</h1>
<p class="muted">Your license keys and the machines each one runs on, your subscriptions and your receipts. Remove a machine you no longer use to free its slot for a new one.</p>
<div id="error" class="alert" role="alert" hidden></div>
<p id="notice" class="note" role="status" hidden></p>
<form id="email-form" novalidate>
<label for="email">E-mail <span class="hint">The one you bought with: we send a sign-in code to it, or by text to your confirmed phone.</span></label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" required>
<button type="submit" class="button primary">Send me a code</button>
</form>
<form id="code-form" novalidate hidden>
<p id="code-sent" class="muted"></p>
<label for="code">Code <span class="hint">6 digits, valid for 5 minutes.</span></label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<button type="submit" class="button primary">Sign in</button>
<button type="button" id="restart" class="button secondary">Use another e-mail</button>
</form>
<form id="link-form" novalidate hidden>
<h2>Confirm your sign-in phone</h2>
<p class="muted">The link in your receipt confirms the phone you gave at checkout as your sign-in phone: we text a code to it, and you are signed in.</p>
<button type="submit" class="button primary">Text me a code</button>
<button type="button" id="link-cancel" class="button secondary">Sign in with my e-mail instead</button>
</form>
<form id="link-code-form" novalidate hidden>
<p id="link-code-sent" class="muted"></p>
<label for="link-code">Code from the text <span class="hint">6 digits, valid for 5 minutes.</span></label>
<input id="link-code" name="link-code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<button type="submit" class="button primary">Confirm and sign in</button>
</form>
<section id="licenses" aria-label="Licenses" hidden>
<div id="license-list"></div>
<section id="subscriptions" class="license" aria-labelledby="subscriptions-title" hidden>
<h2 id="subscriptions-title">Subscriptions</h2>
<ul id="subscription-list" class="items"></ul>
</section>
<section id="orders" class="license" aria-labelledby="orders-title" hidden>
<h2 id="orders-title">Orders and receipts</h2>
<ul id="order-list" class="items"></ul>
</section>
<section class="license" aria-labelledby="phone-title">
<h2 id="phone-title">Sign-in phone</h2>
<p class="muted">Confirm a phone to get sign-in and purchase codes by text, and to buy in the terminal with the cards saved with it.</p>
<form id="phone-form" novalidate>
<label for="phone">Phone <span class="hint">With its country code, like +1 555 010 0000.</span></label>
<input id="phone" name="phone" type="tel" autocomplete="tel" maxlength="32" required>
<button type="submit" class="button secondary">Text me a code</button>
</form>
<form id="phone-code-form" novalidate hidden>
<p id="phone-code-sent" class="muted"></p>
<label for="phone-code">Code from the text <span class="hint">6 digits, valid for 5 minutes.</span></label>
<input id="phone-code" name="phone-code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
<button type="submit" class="button primary">Confirm phone</button>
</form>
</section>
<button type="button" id="sign-out" class="button secondary">Sign out</button>
</section>
<dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
<h2 id="confirm-title"></h2>
<p id="confirm-text" class="muted"></p>
<form method="dialog" class="actions">
<button id="confirm-no" value="no" class="button secondary">Keep it</button>
<button id="confirm-yes" value="yes" class="button primary">Confirm</button>
</form>
</dialog>
<noscript><p class="alert">This page needs JavaScript to sign you in.</p></noscript>`,
  });
}
