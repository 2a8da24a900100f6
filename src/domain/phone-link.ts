/**
 * The receipt's phone link (docs/customers.md): a checkout's receipt, mailed to the buyer's e-mail,
 * may carry a link that lets whoever opens it (so, whoever reads that mailbox: the e-mail's owner)
 * confirm the phone the checkout gave as their sign-in phone, by the SMS code texted to it. The link
 * is stateless: it names the customer and the saved card (whose phone it confirms) and when it
 * expires, under the server's keyed MAC. It works only while the customer has no confirmed phone,
 * so it works once.
 */
export const PHONE_LINK = {
  lifetimeMs: 7 * 86_400_000,
  /** Where the account page reads the token: a URL fragment is never sent to a server nor in Referer. */
  fragment: 'phone-link',
} as const;

export interface PhoneLinkClaims {
  customerId: string;
  cardId: string;
  expiresAt: number;
}

const ID = /^[a-z]{2,8}_[A-Za-z0-9]{8,64}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** What the MAC covers: the claims, in one unambiguous line. */
export const phoneLinkPayload = (claims: PhoneLinkClaims) => `phone-link:v1:${claims.customerId}:${claims.cardId}:${claims.expiresAt}`;

export function formatPhoneLink(claims: PhoneLinkClaims, mac: string): string {
  return `${claims.customerId}.${claims.cardId}.${claims.expiresAt.toString(36)}.${mac}`;
}

/** The claims and MAC of a well-formed token, or null. The MAC is not checked here. */
export function parsePhoneLink(token: string): { claims: PhoneLinkClaims; mac: string } | null {
  if (token.length > 256) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [customerId, cardId, expires, mac] = parts as [string, string, string, string];
  if (!ID.test(customerId) || !ID.test(cardId) || !/^[0-9a-z]{1,12}$/.test(expires) || !MAC.test(mac)) return null;
  const expiresAt = parseInt(expires, 36);
  if (!Number.isSafeInteger(expiresAt)) return null;
  return { claims: { customerId, cardId, expiresAt }, mac };
}
