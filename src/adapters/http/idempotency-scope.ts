import { createHash } from 'node:crypto';
import type { Caller } from '../../app/developers/authenticate.ts';
import { clientAddress } from './client-address.ts';

/** What the scope reads of a route's context: the derived caller (API key) or customer (identity token). */
export interface ScopeCtx {
  request: Request;
  caller?: Caller;
  customer?: { customerId: string };
}

/** JSON with object keys sorted at every depth: equal requests digest equally whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Keys never collide across sellers or buyers. A publishable key is public (shipped in apps), so
 * all of one seller's buyers share it: its keys are per route and per client address too, so
 * another buyer who guesses a key and body is not answered the first buyer's checkout session.
 * The address is kept as a digest only.
 */
export function scopeOf(ctx: ScopeCtx, route: string, trustedProxyHeader: string | null): string {
  if (ctx.customer) return `cus:${ctx.customer.customerId}`;
  if (!ctx.caller) throw new Error('idempotent() needs a route behind withSecretKey, withAnyApiKey or withCustomer');
  if (ctx.caller.scope === 'secret') return `dev:${ctx.caller.developerId}`;
  const address = digestOf(clientAddress(ctx.request, trustedProxyHeader)).slice(0, 32);
  return `pk:${ctx.caller.developerId}:${route}:${address}`;
}

/** SHA-256 of the canonical path parameters and body. */
export function requestDigest(params: unknown, body: unknown): string {
  return digestOf(canonical({ params: params ?? {}, body: body ?? null }));
}
