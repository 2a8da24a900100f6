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

/**
 * A sandbox page of kept messages (texts or mail) to one address, newest first, each with its time,
 * followed by the lookup of another address.
 */
export function keptMessagesPage<T extends { sentAt: number }>(page: {
  title: string;
  heading: string;
  intro: SafeHtml;
  none: string;
  messages: T[];
  content: (message: T) => SafeHtml;
  lookup: SafeHtml;
}): string {
  const list = page.messages.length
    ? html`<ol class="messages">${page.messages.map(
        (m) => html`<li><time datetime="${new Date(m.sentAt).toISOString()}">${utc(m.sentAt)}</time>${page.content(m)}</li>`,
      )}</ol>`
    : html`<p class="alert" role="status">${page.none}</p>`;
  return layout({
    title: page.title,
    sandbox: true,
    body: html`${PAGE_STYLE}<h1>${page.heading}</h1>
<p class="muted">${page.intro}</p>
${list}
${page.lookup}`,
  });
}

/** Looks up another address: a GET to the page itself (relative action: ?to=…). */
export function lookupForm(to: string, field: { label: string; type: string; maxlength: number; placeholder: string }): SafeHtml {
  return html`<form class="lookup" method="get">
<label for="to" class="muted" style="margin:0;font-weight:400">${field.label}</label>
<input id="to" name="to" type="${field.type}" value="${to}" maxlength="${field.maxlength}" autocomplete="off" placeholder="${field.placeholder}">
<button class="button secondary" type="submit">Show</button>
</form>`;
}

const PHONE_FIELD = { label: 'Phone', type: 'tel', maxlength: 64, placeholder: '+15551234567' };

/** The sandbox outbox for one phone: the messages that would have been texted to it, newest first. */
export function outboxPage(options: { to: string; messages: OutboxMessage[] }): string {
  const { to, messages } = options;
  return keptMessagesPage({
    title: `SMS outbox: ${to}`,
    heading: 'SMS outbox',
    intro: html`Text messages to <strong>${to}</strong>, newest first. In sandbox mode they are kept here instead of being sent.`,
    none: 'No messages to this number yet.',
    messages,
    content: (m) => html`<p class="sms">${withCodes(m.body)}</p>`,
    lookup: lookupForm(to, PHONE_FIELD),
  });
}

/** The lookup alone, for a visit without a phone to show. */
export function askForPhone(): SafeHtml {
  return html`${PAGE_STYLE}${lookupForm('', PHONE_FIELD)}`;
}
