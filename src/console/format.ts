/** Minor units of a currency (2 for usd, 0 for jpy), as Intl knows them. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function money(amount: number | string, currency: string): string {
  const value = Number(amount) / 10 ** minorDigits(currency);
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(value);
  } catch {
    return `${value} ${currency.toUpperCase()}`;
  }
}

/** "12.50" in usd → 1250; null when it is not an amount. */
export function toMinor(text: string, currency: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  return Math.round(Number(trimmed) * 10 ** minorDigits(currency));
}

export function fromMinor(amount: number, currency: string): string {
  return (amount / 10 ** minorDigits(currency)).toFixed(minorDigits(currency));
}

export function when(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const date = new Date(Number(ms));
  return date.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

export function day(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return new Date(ms).toLocaleDateString('en', { dateStyle: 'medium' });
}

/** "a, b ,c" → ["a","b","c"] */
export function words(text: string): string[] {
  return text
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
}
