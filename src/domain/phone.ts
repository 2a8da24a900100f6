/** Phone numbers as a buyer may see them: all but the last four digits masked. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const last4 = digits.slice(-4);
  return `${phone.trim().startsWith('+') ? '+' : ''}${'*'.repeat(Math.max(digits.length - 4, 0))}${last4}`;
}

/**
 * The masked phone shown for an e-mail with no customer: derived from the e-mail, so repeated calls
 * agree, and shaped like a real one (CONTRACT.md: unknown e-mails answer exactly like known ones).
 */
export function decoyMaskedPhone(emailDigest: string): string {
  let h = 0;
  for (let i = 0; i < emailDigest.length; i++) h = (Math.imul(h, 31) + emailDigest.charCodeAt(i)) >>> 0;
  return `+${'*'.repeat(7)}${(h % 10_000).toString().padStart(4, '0')}`;
}
