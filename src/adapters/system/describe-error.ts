/**
 * What an unexpected error may leave in the log: its class and its code (a driver's SQLSTATE or
 * errno), never its message. A failed query's message carries the query's parameters (e-mails,
 * token hashes), and so may anything that wraps one.
 */
export function describeError(error: unknown): { error: string; code?: string } {
  const name = error instanceof Error ? error.name : typeof error;
  const cause = (error as { cause?: unknown })?.cause;
  const code = codeOf(error) ?? codeOf(cause);
  const causeName = cause instanceof Error ? cause.name : null;
  const described = causeName && causeName !== name ? `${name} (${causeName})` : name;
  return code === undefined ? { error: described } : { error: described, code };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code ?? (error as { errno?: unknown } | null)?.errno;
  const text = typeof code === 'string' || typeof code === 'number' ? String(code) : '';
  return /^[A-Za-z0-9_.-]{1,40}$/.test(text) ? text : undefined;
}
