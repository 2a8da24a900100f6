import { isIP } from 'node:net';

/**
 * The client address the per-address limits count under. By default it is the TCP peer of the
 * connection, which no client can forge. Behind a reverse proxy every request comes from the proxy,
 * so TRUSTED_PROXY_HEADER names the header that proxy sets; it is read only when configured, since
 * any client can send any header to a service it reaches directly.
 */

/** Addresses the server saw on the socket, recorded by main.ts before the app handles the request. */
const socketAddresses = new WeakMap<Request, string>();

/** What a request counts under when no address is known (in-process requests, a Unix socket). */
export const UNKNOWN_ADDRESS = 'unknown';

export function recordSocketAddress(request: Request, address: string | null | undefined): void {
  if (address) socketAddresses.set(request, address);
}

/**
 * For code that hands the app a copy of the request (`new Request(url, request)`): the copy keeps
 * the original's address. Without it the copy counts under `unknown`, shared by all such copies.
 */
export function carrySocketAddress(from: Request, to: Request): Request {
  recordSocketAddress(to, socketAddresses.get(from));
  return to;
}

/** Wraps a fetch handler so that each request's socket address is recorded first. */
export function withSocketAddress<S extends { requestIP(request: Request): { address: string } | null }>(
  handle: (request: Request) => Response | Promise<Response>,
): (request: Request, server: S) => Response | Promise<Response> {
  return (request, server) => {
    recordSocketAddress(request, server.requestIP(request)?.address);
    return handle(request);
  };
}

/**
 * The address `request` counts under: the trusted proxy header's when one is configured and carries
 * an IP address, else the socket's, else `unknown`; always in the form `addressKey` gives.
 */
export function clientAddress(request: Request, trustedHeader: string | null): string {
  const fromProxy = trustedHeader === null ? null : addressFromHeader(trustedHeader, request.headers.get(trustedHeader));
  const address = fromProxy ?? socketAddresses.get(request) ?? null;
  return address === null ? UNKNOWN_ADDRESS : addressKey(address);
}

/**
 * X-Forwarded-For is a list each proxy appends to: only its right-most entry was written by the
 * proxy in front of the service, the others are whatever the client sent. Other headers (X-Real-IP,
 * CF-Connecting-IP, …) hold one address.
 */
function addressFromHeader(name: string, value: string | null): string | null {
  if (value === null) return null;
  const entry = (name === 'x-forwarded-for' ? value.split(',').at(-1) : value)?.trim() ?? '';
  const bare = entry.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
  return isIP(bare) ? bare : null;
}

/**
 * One key per client: an IPv4 address as is (also when mapped into IPv6), an IPv6 address by its
 * /64 prefix, since one host is routinely given a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}

const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A valid TRUSTED_PROXY_HEADER value, lower-cased; null when `value` is not a header name. */
export function parseTrustedHeader(value: string): string | null {
  const name = value.trim().toLowerCase();
  return HEADER_NAME.test(name) ? name : null;
}
