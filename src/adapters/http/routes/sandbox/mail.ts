import { Elysia, t } from 'elysia';
import { EMAIL_MAX_LENGTH, normalizeEmail } from '../../../../domain/developer.ts';
import { InvalidRequestError } from '../../../../domain/errors.ts';
import type { Deps } from '../../../../ports/deps.ts';
import { SECURITY } from '../../auth.ts';
import { EXAMPLE } from '../../examples.ts';
import { htmlResponse } from '../../pages/html.ts';
import { mailPage } from '../../pages/mail-page.ts';
import { errorsOf, htmlPage, jsonErrors, Millis } from '../../schemas.ts';

const tags = ['Sandbox'];
export const MAIL_LIMIT = 50;

const MailQuery = t.Object(
  {
    to: t.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH, description: 'The e-mail address (any case).', examples: [EXAMPLE.buyerEmail] }),
  },
  { additionalProperties: true },
);

const MailList = t.Object({
  data: t.Array(
    t.Object({
      to: t.String(),
      subject: t.String(),
      text: t.String({ description: 'The plain-text part.' }),
      html: t.String({ description: 'The HTML part.' }),
      sentAt: Millis,
    }),
    { description: `Newest first, at most ${MAIL_LIMIT}.` },
  ),
});

function address(raw: string): string {
  const email = normalizeEmail(raw);
  if (!email) throw new InvalidRequestError('to must be an e-mail address.', 'to', 'query');
  return email;
}

/** The sandbox's kept mail: mounted only when no live provider is configured. */
export function sandboxMailRoutes(deps: Pick<Deps, 'sandboxMail'>) {
  return new Elysia({ name: 'sandbox-mail' })
    .get(
      '/sandbox/mail',
      async ({ query }) => {
        const mails = await deps.sandboxMail.listFor(address(query.to), MAIL_LIMIT);
        return { data: mails.map(({ to, subject, text, html, sentAt }) => ({ to, subject, text, html, sentAt })) };
      },
      {
        query: MailQuery,
        response: { 200: MailList, ...errorsOf(400) },
        detail: {
          tags,
          summary: 'Sandbox mail',
          description: `The mail (receipts, sign-in and confirmation codes) that sandbox mode kept instead of sending to this address, newest first, at most ${MAIL_LIMIT}. Absent once live providers are configured.`,
          security: SECURITY.none,
        },
      },
    )
    .get(
      '/sandbox/mail/view',
      async ({ query }) => {
        const to = address(query.to);
        return htmlResponse(mailPage({ to, mails: await deps.sandboxMail.listFor(to, MAIL_LIMIT) }));
      },
      {
        query: MailQuery,
        detail: {
          tags,
          summary: 'Sandbox mail (HTML)',
          description: 'The same mail as GET /sandbox/mail, as a page for a person (the text parts, codes set off). Without ?to= a browser gets a 400 page asking for the address; other clients, the JSON error.',
          security: SECURITY.none,
          responses: { 200: htmlPage('The mail page.'), ...jsonErrors(400) },
        },
      },
    );
}
