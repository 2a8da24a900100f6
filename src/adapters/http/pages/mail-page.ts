import type { KeptMail } from '../../../ports/mail-repository.ts';
import { html, type SafeHtml } from './html.ts';
import { layout } from './layout.ts';
import { PAGE_STYLE, utc, withCodes } from './outbox-page.ts';

/** The sandbox mail for one address: what would have been e-mailed to it, newest first (the text part). */
export function mailPage(options: { to: string; mails: KeptMail[] }): string {
  const { to, mails } = options;
  const list = mails.length
    ? html`<ol class="messages">${mails.map(
        (m) => html`<li><time datetime="${new Date(m.sentAt).toISOString()}">${utc(m.sentAt)}</time><h2>${m.subject}</h2><pre class="mail-text">${withCodes(m.text)}</pre></li>`,
      )}</ol>`
    : html`<p class="alert" role="status">No mail to this address yet.</p>`;
  return layout({
    title: `Mail: ${to}`,
    sandbox: true,
    body: html`${PAGE_STYLE}<h1>Sandbox mail</h1>
<p class="muted">Mail to <strong>${to}</strong>, newest first. In sandbox mode it is kept here instead of being sent.</p>
${list}
${mailLookup(to)}`,
  });
}

/** The lookup alone, for a visit without an address to show. */
export function askForAddress(): SafeHtml {
  return html`${PAGE_STYLE}${mailLookup('')}`;
}

function mailLookup(to: string): SafeHtml {
  return html`<form class="lookup" method="get">
<label for="to" class="muted" style="margin:0;font-weight:400">E-mail</label>
<input id="to" name="to" type="email" value="${to}" maxlength="254" autocomplete="off" placeholder="ada@example.com">
<button class="button secondary" type="submit">Show</button>
</form>`;
}
