/**
 * Every path the service serves sits under `/v1` (SPEC.md section 9). A base URL given without
 * it would reach nothing but 404s, so it is added, as the CLI's --api-url does:
 * `https://host`, `https://host/`, `https://host/v1/` → `https://host/v1`. A path alone
 * (`/licensing`, for a page served by the same origin) is normalized the same way.
 */
export function normalizeBaseUrl(raw: string): string {
  const text = String(raw).trim();
  if (text.startsWith('/') && !text.startsWith('//')) return withV1(text.replace(/[?#].*$/, ''));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`baseUrl must be a URL such as https://licensing.example.com/v1, not "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be an http(s) URL, not "${raw}"`);
  url.pathname = withV1(url.pathname);
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function withV1(pathname: string): string {
  const path = pathname.replace(/\/+$/, '');
  return path.endsWith('/v1') ? path : `${path}/v1`;
}
