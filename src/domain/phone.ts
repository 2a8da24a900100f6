/** Phone numbers as a buyer may see them: all but the last four digits masked. */
/** An e-mail address with its local part masked but the first character: a•••@example.com. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const last4 = digits.slice(-4);
  return `${phone.trim().startsWith('+') ? '+' : ''}${'*'.repeat(Math.max(digits.length - 4, 0))}${last4}`;
}

/**
 * Digits of real numbers with their country code (E.164), one slot per tenth of the numbers a
 * service like this sees: 11 (+1 US/Canada, +33 France, +34 Spain, +61 Australia, +7 Russia),
 * 12 (+44 UK, +39 Italy, +91 India, +81 Japan, +52 Mexico), 13 (+49 Germany, +55 Brazil, +86 China).
 */
const DECOY_DIGITS = [11, 11, 11, 11, 12, 12, 12, 12, 13, 13] as const;

/**
 * The masked phone shown for an e-mail with no customer, shaped like a real one of any common
 * length (CONTRACT.md: unknown e-mails answer exactly like known ones). `emailDigest` must be a
 * keyed digest of the e-mail: repeated calls agree, and nobody without the key can compute it.
 */
export function decoyMaskedPhone(emailDigest: string): string {
  let h = 0;
  for (let i = 0; i < emailDigest.length; i++) h = (Math.imul(h, 31) + emailDigest.charCodeAt(i)) >>> 0;
  const digits = DECOY_DIGITS[Math.floor(h / 10_000) % DECOY_DIGITS.length]!;
  return `+${'*'.repeat(digits - 4)}${(h % 10_000).toString().padStart(4, '0')}`;
}

/**
 * A phone number as checkouts and the phone change accept it: spaces, dashes, dots and brackets
 * are dropped; an optional leading + and 7 to 15 digits stay (E.164-ish). null when it is not one.
 */
export function normalizePhone(value: string): string | null {
  const compact = value.trim().replace(/[\s\-.()]/g, '');
  const match = /^(\+?)(\d{7,15})$/.exec(compact);
  return match ? `${match[1]}${match[2]}` : null;
}
