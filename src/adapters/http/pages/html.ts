import { html, SafeHtml, escapeHtml } from '../../../domain/html.ts';

export { escapeHtml, html, SafeHtml };

/**
 * The headers of every page: no scripts (but one inline script carrying the response's nonce, on
 * pages that pass one), no outside assets, not framed (no clickjacking of Pay).
 * form-action is left open on purpose: Chrome applies it to the redirect after Pay, which goes to
 * the seller's own successUrl.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** `connectSelf`: the page's script may call this service's own API (fetch to the page's origin), nothing else. */
export function htmlResponse(page: string, status = 200, options: { scriptNonce?: string; connectSelf?: boolean } = {}): Response {
  if (!options.scriptNonce) return new Response(page, { status, headers: PAGE_HEADERS });
  let csp = `${PAGE_HEADERS['content-security-policy']}; script-src 'nonce-${options.scriptNonce}'`;
  if (options.connectSelf) csp += "; connect-src 'self'";
  return new Response(page, { status, headers: { ...PAGE_HEADERS, 'content-security-policy': csp } });
}

/** A fresh CSP nonce: 128 random bits, base64. */
export function scriptNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}
