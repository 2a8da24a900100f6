import { Elysia, t } from 'elysia';
import { InvalidRequestError } from '../../../../domain/errors.ts';
import type { Deps } from '../../../../ports/deps.ts';
import type { OutboxMessage } from '../../../../ports/sms-outbox-repository.ts';
import { normalizePhone } from '../../../sandbox/sandbox-payment.ts';
import { SECURITY } from '../../auth.ts';
import { outboxPage } from '../../pages/outbox-page.ts';
import { htmlResponse } from '../../pages/html.ts';
import { EXAMPLE } from '../../examples.ts';
import { errorsOf, htmlPage, jsonErrors, Millis } from '../../schemas.ts';

const tags = ['Sandbox'];
export const OUTBOX_LIMIT = 50;

const OutboxQuery = t.Object(
  {
    to: t.String({
      minLength: 1,
      maxLength: 64,
      description:
        'The phone as the customer record holds it, e.g. +15551234567; spaces, dashes, dots and brackets are ignored. An unencoded + arrives as a space and is read as the +.',
      examples: [EXAMPLE.phone],
    }),
  },
  { additionalProperties: true },
);

const OutboxList = t.Object({
  data: t.Array(
    t.Object({
      to: t.String(),
      body: t.String({ description: 'The text as it would have been sent.' }),
      sentAt: Millis,
    }),
    { description: `Newest first, at most ${OUTBOX_LIMIT}.` },
  ),
});

/**
 * The ways the same number may be written for the lookup: as given (trimmed), and as + and digits.
 * In a query string an unencoded `+` decodes to a space, so a leading space before digits is read
 * as the `+` it was.
 */
export function phoneLookup(raw: string): { shown: string; candidates: string[] } {
  const given = raw.trim();
  if (!given) throw new InvalidRequestError('to must be a phone number.', 'to', 'query');
  const normalized = normalizePhone(given);
  const lostPlus = /^\s\d/.test(raw) && normalized && !normalized.startsWith('+') ? `+${normalized}` : null;
  const candidates = [...new Set([given, normalized, lostPlus].filter((c): c is string => c !== null))];
  return { shown: lostPlus ?? given, candidates };
}

/** The sandbox SMS outbox: mounted only when no Twilio credentials are configured. */
export function outboxRoutes(deps: Pick<Deps, 'smsOutbox'>) {
  const messagesTo = async (candidates: string[]): Promise<OutboxMessage[]> => {
    const lists = await Promise.all(candidates.map((to) => deps.smsOutbox.listFor(to, OUTBOX_LIMIT)));
    // Each list is newest first; a stable sort keeps each one's own order among equal times.
    return lists.flat().sort((a, b) => b.sentAt - a.sentAt).slice(0, OUTBOX_LIMIT);
  };

  return new Elysia({ name: 'sandbox-outbox' })
    .get(
      '/sandbox/outbox',
      async ({ query }) => {
        const messages = await messagesTo(phoneLookup(query.to).candidates);
        return { data: messages.map(({ to, body, sentAt }) => ({ to, body, sentAt })) };
      },
      {
        query: OutboxQuery,
        response: { 200: OutboxList, ...errorsOf(400) },
        detail: {
          tags,
          summary: 'Sandbox SMS outbox',
          description: `The text messages (login and purchase codes) that sandbox mode kept instead of sending to this phone, newest first, at most ${OUTBOX_LIMIT}. Absent when Twilio is configured.`,
          security: SECURITY.none,
        },
      },
    )
    .get(
      '/sandbox/outbox/view',
      async ({ query }) => {
        const { shown, candidates } = phoneLookup(query.to);
        return htmlResponse(outboxPage({ to: shown, messages: await messagesTo(candidates) }));
      },
      {
        query: OutboxQuery,
        detail: {
          tags,
          summary: 'Sandbox SMS outbox (HTML)',
          description: 'The same messages as GET /sandbox/outbox, as a page for a person: newest first, codes set off from the text. Without ?to= a browser (Accept: text/html) gets a 400 page asking for the phone; other clients, the JSON error.',
          security: SECURITY.none,
          responses: { 200: htmlPage('The outbox page.'), ...jsonErrors(400) },
        },
      },
    );
}
