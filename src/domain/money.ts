/** ISO 4217 currencies without minor units (Stripe's list of zero-decimal currencies). */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

export function minorUnitDigits(currency: string): number {
  const c = currency.toLowerCase();
  return ZERO_DECIMAL.has(c) ? 0 : THREE_DECIMAL.has(c) ? 3 : 2;
}

/** A price in minor units as a person reads it, e.g. 1999 usd → "$19.99", 500 jpy → "¥500". */
export function formatPrice(amount: number, currency: string, locale = 'en-US'): string {
  const digits = minorUnitDigits(currency);
  const value = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${currency.toUpperCase()}`;
  }
}
