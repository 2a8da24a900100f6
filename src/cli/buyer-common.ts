import { normalizeBaseUrl } from '../client/base-url.ts';
import { Http } from '../client/http.ts';
import { LicenseClient, machineFingerprint, type Jwks, type LicenseCheckResult } from '../client/index.ts';
import { CustomerSession } from '../client/terminal.ts';
import { parseLicenseKey } from '../domain/license-key.ts';
import { cacheDirFor, type ActivatedLicense, type BuyerConfig } from './config.ts';
import type { Context } from './context.ts';
import { CliError, EXIT, HttpApiError, NotConfiguredError } from './errors.ts';
import { list, when } from './output.ts';

/** Flags of the commands that check licenses (see "Checking a license" in the help). */
export const CHECK_FLAGS = ['publishable-key', 'jwks-url', 'developer'] as const;

/** The library's per-application cache folders live beside the config file, one per product. */
const APP_NAME = 'licensing-cli';

export function requireBuyer(ctx: Context): BuyerConfig {
  const buyer = ctx.config.buyer;
  if (!buyer?.identityToken) throw new NotConfiguredError('not logged in: run "licensing login" first', 'not_logged_in');
  return buyer;
}

export function signInExpired(): NotConfiguredError {
  return new NotConfiguredError('your sign-in expired or was revoked: run "licensing login" again', 'not_logged_in');
}

/** The claims of a key, read without verification (which product, which seller). */
/** The buyer's own bearer call: an identity token the API no longer accepts means "log in again". */
export async function asBuyer<T>(ctx: Context, method: string, path: string, body?: unknown): Promise<T> {
  const buyer = requireBuyer(ctx);
  try {
    return await ctx.api.request<T>(method, path, { bearer: buyer.identityToken, deviceFingerprint: await machineFingerprint(), ...(body === undefined ? {} : { body }) });
  } catch (error) {
    throw error instanceof HttpApiError && error.status === 401 ? signInExpired() : error;
  }
}

export function keyClaims(licenseKey: string): { productId: string; developerId: string; licenseId: string } {
  const parsed = parseLicenseKey(licenseKey.trim());
  if (!parsed.ok) throw new CliError('that is not a license key', parsed.reason, EXIT.invalidLicense);
  return { productId: parsed.key.claims.productId, developerId: parsed.key.claims.sub, licenseId: parsed.key.claims.id };
}

/**
 * `--publishable-key`, `$LICENSING_PUBLISHABLE_KEY`, the one remembered for the seller (or, from
 * config files of earlier versions, for the product), or this machine's own seller's.
 */
export function publishableKey(ctx: Context, developerId: string | undefined, stored?: ActivatedLicense): string | undefined {
  const seller = ctx.config.seller;
  return (
    ctx.flags.string('publishable-key') ??
    (process.env.LICENSING_PUBLISHABLE_KEY || undefined) ??
    (developerId ? ctx.config.publishableKeys?.[developerId] : undefined) ??
    stored?.publishableKey ??
    (seller?.publishableKey && developerId && seller.developerId === developerId ? seller.publishableKey : undefined)
  );
}

/** One key per seller: every product of that seller is checked (and bought) with it from now on. */
export function rememberPublishableKey(ctx: Context, developerId: string, key: string): void {
  ctx.config.publishableKeys = { ...ctx.config.publishableKeys, [developerId]: key };
}

/** The seller of a product this machine has met: an activated license of it, or one the buyer holds. */
export function sellerOf(ctx: Context, productId: string): string | undefined {
  const activated = ctx.config.licenses?.[productId];
  if (activated) return activated.developerId;
  const held = ctx.config.buyer?.licenses.find((l) => l.productId === productId);
  const parsed = held && parseLicenseKey(held.licenseKey);
  return parsed && parsed.ok ? parsed.key.claims.sub : undefined;
}

/** A product's name as this machine last heard it (a purchase, a login, a checkout), if ever. */
export function productNameOf(ctx: Context, productId: string): string | undefined {
  return ctx.config.licenses?.[productId]?.productName || ctx.config.buyer?.licenses.find((l) => l.productId === productId && l.productName)?.productName || undefined;
}

export function requirePublishableKey(ctx: Context, developerId: string | undefined, stored?: ActivatedLicense): string {
  const key = publishableKey(ctx, developerId, stored);
  if (!key) throw new NotConfiguredError("no publishable key: pass --publishable-key pk_… (the seller's) or set LICENSING_PUBLISHABLE_KEY");
  return key;
}

/** The seller's JWKS: `--jwks-url`, else the API's for the developer; the stored copy when unreachable. */
export async function sellerJwks(ctx: Context, developerId: string, stored?: ActivatedLicense): Promise<Jwks> {
  const url = ctx.flags.string('jwks-url') ?? `${ctx.apiUrl}/developers/${encodeURIComponent(ctx.flags.string('developer') ?? developerId)}/jwks.json`;
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    const body = (await response.json().catch(() => null)) as Jwks | null;
    if (response.ok && Array.isArray(body?.keys)) return body;
    if (stored?.jwks) return stored.jwks;
    throw new CliError(`no public keys at ${url} (HTTP ${response.status})`, 'jwks_unavailable');
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (stored?.jwks) return stored.jwks;
    throw new CliError(`cannot fetch the public keys from ${url}`, 'network_unreachable', EXIT.unreachable);
  }
}

/**
 * The library as an application of `productId` embeds it. The CLI holds keys of many products, one
 * cache each, and checks each key as an application of the key's own product: the scope check
 * then holds the key to the product it is stored under.
 */
export function clientFor(ctx: Context, productId: string, options: { publishableKey?: string; jwks?: Jwks } = {}): LicenseClient {
  return new LicenseClient({
    baseUrl: ctx.apiUrl,
    // Terminal purchases need neither: the library still asks for both.
    apiKey: options.publishableKey ?? 'pk_unset',
    productId,
    publicKeys: options.jwks ?? { keys: [] },
    appName: APP_NAME,
    cacheDir: cacheDirFor(ctx.configPath, productId),
  });
}

/** Sign-in and sign-out are no product's: the library's customer session alone, without a license cache. */
export function sessionFor(ctx: Context): CustomerSession {
  const http = new Http(normalizeBaseUrl(ctx.apiUrl), ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)) as typeof fetch);
  return new CustomerSession(http, () => machineFingerprint(), async () => {
    throw new CliError('signing in stores no license key', 'internal');
  });
}

/** Remembers a key for its product, with what checking it later needs. */
export function rememberLicense(ctx: Context, licenseKey: string, extra: { jwks?: Jwks; productName?: string; publishableKey?: string }): ActivatedLicense {
  const { productId, developerId } = keyClaims(licenseKey);
  const entry: ActivatedLicense = { licenseKey, developerId, ...definedOnly({ productName: productNameOf(ctx, productId), ...definedOnly(extra) }) };
  ctx.config.licenses = { ...ctx.config.licenses, [productId]: entry };
  return entry;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One row per checked product (by name when known): valid, why not, expiry, how it was verified, binding. */
export function checkRow(product: string, licenseId: string, result: LicenseCheckResult): string[] {
  return [
    product,
    licenseId,
    result.valid ? 'valid' : 'invalid',
    result.reason ?? '-',
    result.license ? when(result.license.expiresAt) : '-',
    result.license ? list(result.license.features) : '-',
    result.offlineVerified ? 'offline' : 'online',
    result.machineBound === undefined ? '-' : result.machineBound ? 'bound' : 'unbound',
  ];
}

export const CHECK_HEADERS = ['PRODUCT', 'LICENSE', 'VALID', 'REASON', 'EXPIRES', 'FEATURES', 'CHECKED', 'MACHINE'];
