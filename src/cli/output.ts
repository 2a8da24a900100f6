/** Aligned columns: every column as wide as its widest cell, two spaces between, no trailing blanks. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}

/** `label: value` lines with the values aligned. */
export function fields(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`.trimEnd()).join('\n');
}

/** A millisecond timestamp as an ISO date-time in UTC (without milliseconds), or "never". */
export function when(ms: number | null | undefined, never = 'never'): string {
  if (ms === null || ms === undefined) return never;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** m:ss for a progress line, e.g. 72_000 → "1:12". */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function list(values: readonly string[]): string {
  return values.length ? values.join(',') : '-';
}
