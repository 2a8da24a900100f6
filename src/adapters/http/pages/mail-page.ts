import type { KeptMail } from '../../../ports/mail-repository.ts';
import { html, type SafeHtml } from './html.ts';
import { keptMessagesPage, lookupForm, PAGE_STYLE, withCodes } from './outbox-page.ts';

const ADDRESS_FIELD = { label: 'E-mail', type: 'email', maxlength: 254, placeholder: 'ada@example.com' };

/** The sandbox mail for one address: what would have been e-mailed to it, newest first (the text part). */
export function mailPage(options: { to: string; mails: KeptMail[] }): string {
  const { to, mails } = options;
  return keptMessagesPage({
    title: `Mail: ${to}`,
    heading: 'Sandbox mail',
    intro: html`Mail to <strong>${to}</strong>, newest first. In sandbox mode it is kept here instead of being sent.`,
    none: 'No mail to this address yet.',
    messages: mails,
    content: (m) => html`<h2>${m.subject}</h2><pre class="mail-text">${withCodes(m.text)}</pre>`,
    lookup: lookupForm(to, ADDRESS_FIELD),
  });
}

/** The lookup alone, for a visit without an address to show. */
export function askForAddress(): SafeHtml {
  return html`${PAGE_STYLE}${lookupForm('', ADDRESS_FIELD)}`;
}
