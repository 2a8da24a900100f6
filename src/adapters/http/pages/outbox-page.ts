import type { OutboxMessage } from '../../../ports/sms-outbox-repository.ts';
import { html, SafeHtml } from './html.ts';
import { layout } from './layout.ts';

export const PAGE_STYLE = new SafeHtml(`<style>
.messages{list-style:none;padding:0;margin:1rem 0 0}
.messages li{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;margin:.75rem 0}
.messages time{display:block;font-size:.8125rem;color:var(--muted);margin-bottom:.25rem}
.sms{margin:0;overflow-wrap:anywhere}
.mail-text{margin:.5rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere;font:inherit}
.messages h2{font-size:1rem;margin:0}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.25em;font-weight:700;letter-spacing:.12em;
background:var(--note-bg);border:1px solid var(--note-line);border-radius:6px;padding:0 .3em}
.lookup{display:flex;gap:.5rem;align-items:center;margin-top:1rem}
.lookup input{flex:1}
.lookup .button{width:auto;margin:0}
</style>`);

/** Six-digit one-time codes stand out from the sentence around them, so they are easy to read and copy. */
export function withCodes(body: string): SafeHtml[] {
  return body.split(/(\b\d{6}\b)/).map((part, i) => (i % 2 === 1 ? html`<strong class="code">${part}</strong>` : html`${part}`));
}

export function utc(millis: number): string {
  return `${new Date(millis).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The sandbox outbox for one phone: the messages that would have been texted to it, newest first. */
export function outboxPage(options: { to: string; messages: OutboxMessage[] }): string {
  const { to, messages } = options;
  const list = messages.length
    ? html`<ol class="messages">${messages.map(
        (m) => html`<li><time datetime="${new Date(m.sentAt).toISOString()}">${utc(m.sentAt)}</time><p class="sms">${withCodes(m.body)}</p></li>`,
      )}</ol>`
    : html`<p class="alert" role="status">No messages to this number yet.</p>`;
  return layout({
    title: `SMS outbox: ${to}`,
    sandbox: true,
    body: html`${PAGE_STYLE}<h1>SMS outbox</h1>
<p class="muted">Text messages to <strong>${to}</strong>, newest first. In sandbox mode they are kept here instead of being sent.</p>
${list}
${lookupForm(to)}`,
  });
}

/** The lookup alone, for a visit without a phone to show. */
export function askForPhone(): SafeHtml {
  return html`${PAGE_STYLE}${lookupForm('')}`;
}

/** Looks up another phone: a GET to the page itself (relative action: ?to=…). */
function lookupForm(to: string): SafeHtml {
  return html`<form class="lookup" method="get">
<label for="to" class="muted" style="margin:0;font-weight:400">Phone</label>
<input id="to" name="to" type="tel" value="${to}" maxlength="64" autocomplete="off" placeholder="+15551234567">
<button class="button secondary" type="submit">Show</button>
</form>`;
}
