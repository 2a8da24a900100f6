import { parseStatement, type Statement } from '../domain/key-statements.ts';
import type { CacheStore } from './cache.ts';
import type { Jwks } from './types.ts';

/**
 * docs/key-rotation.md: which of the seller's keys this application believes. The JWKS it shipped
 * with is the root; a key it did not ship with is believed only when an endorsement signed by a key
 * it already believes vouches for it. A key retired as compromised (by a statement its named
 * successor signed) vouches from then on for that successor alone, and its own later signatures
 * are refused by the callers (offline.ts: license keys issued from then on; answers: all).
 * What was learned is kept in its own file beside the license cache, as the signed statements
 * themselves: re-checked from the shipped keys on every start, so editing the file adds no trust.
 */

/** The response header an answer carries its seller's statements in, comma-separated. */
export const KEY_CHAIN_HEADER = 'licensing-key-chain';
export const KEYS_FILE = 'keys.json';
const VERSION = 1;
/** The most statements kept; a seller rotating weekly for years stays far below it. */
const MAX_KEPT = 256;
/** An unknown key makes the client fetch the seller's JWKS at most this often per seller. */
const DISCOVERY_INTERVAL_MS = 300_000;
const MAX_CHECKED = 4096;

export interface TrustedKey {
  key: CryptoKey;
  /** Set when the key is known to be retired as compromised: nothing it signed from then on is believed. */
  compromisedAt: number | null;
}

export interface TrustIo {
  /** Where learned statements are kept between runs. */
  store?: () => Promise<CacheStore>;
  /** The seller's published JWKS (unauthenticated: only what chains to a believed key counts). */
  fetchJwks?: (developerId: string) => Promise<unknown>;
  now?: () => number;
}

type Entry = { x: string; compromisedAt: number | null };
type Retired = { compromisedAt: number; successor: string };
type Item = Statement & { raw: string };

export class KeyTrust {
  private io: TrustIo = {};
  private learned: string[] | undefined;
  /** Statements heard in this run (kept or not): an unused one may be used once its signer is known. */
  private heard: string[] = [];
  private loading: Promise<void> | undefined;
  private state: Promise<Map<string, Entry>> | undefined;
  private used = new Set<string>();
  private readonly keys = new Map<string, Promise<CryptoKey | null>>();
  private readonly checked = new Map<string, Promise<boolean>>();
  private readonly asked = new Map<string, number>();

  constructor(private readonly shipped: Jwks) {}

  attach(io: TrustIo): void {
    this.io = io;
  }

  /**
   * The believed key for `kid`. An unknown kid with the seller named (a license key's `sub`) makes
   * the client look at the seller's JWKS, then try again.
   */
  async keyFor(kid: string, developerId?: string): Promise<TrustedKey | null> {
    let entry = (await this.trusted()).get(kid);
    if (!entry && developerId !== undefined && (await this.discover(developerId))) entry = (await this.trusted()).get(kid);
    if (!entry) return null;
    const key = await this.importKey(entry.x);
    return key ? { key, compromisedAt: entry.compromisedAt } : null;
  }

  /** The statements of an answer's Licensing-Key-Chain header. */
  async learnChain(header: string | null): Promise<void> {
    if (header) await this.learn(header.split(',').map((s) => s.trim()));
  }

  /** Takes the statements that chain to a believed key and keeps them; the rest are ignored. */
  async learn(statements: readonly unknown[]): Promise<void> {
    await this.load();
    const known = new Set([...shippedStatements(this.shipped), ...this.learned!, ...this.heard]);
    const fresh = [...new Set(statements.filter((s): s is string => typeof s === 'string' && !known.has(s) && parseStatement(s) !== null))];
    if (fresh.length === 0) return;
    // Everything heard in this run counts, so two answers learned at once cannot hide each other's keys.
    this.heard = [...this.heard, ...fresh].slice(-MAX_KEPT);
    const state = this.compute([...this.learned!, ...this.heard]);
    this.state = state;
    await state;
    const kept = this.heard.filter((s) => this.used.has(s) && !this.learned!.includes(s));
    if (kept.length === 0) return;
    this.learned = [...this.learned!, ...kept].slice(-MAX_KEPT);
    await this.save();
  }

  /** Looks at the seller's JWKS for keys it vouches for; true when it was asked. */
  private async discover(developerId: string): Promise<boolean> {
    const now = (this.io.now ?? Date.now)();
    const last = this.asked.get(developerId);
    if (!this.io.fetchJwks || (last !== undefined && now - last < DISCOVERY_INTERVAL_MS)) return false;
    this.asked.set(developerId, now);
    try {
      await this.learn(statementsOf(await this.io.fetchJwks(developerId)));
      return true;
    } catch {
      return false;
    }
  }

  private async trusted(): Promise<Map<string, Entry>> {
    await this.load();
    this.state ??= this.compute([...this.learned!, ...this.heard]);
    return this.state;
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      this.learned = [];
      try {
        const store = await this.io.store?.();
        const value = JSON.parse((await store?.read()) ?? 'null') as { version?: unknown; statements?: unknown } | null;
        if (value?.version === VERSION && Array.isArray(value.statements)) this.learned = value.statements.filter((s): s is string => typeof s === 'string').slice(-MAX_KEPT);
      } catch {}
    })();
    return this.loading;
  }

  private async save(): Promise<void> {
    try {
      const store = await this.io.store?.();
      await store?.write(JSON.stringify({ version: VERSION, statements: this.learned }, null, 2));
    } catch {
      // Not kept: learned again from the next answer or the JWKS.
    }
  }

  /**
   * From the shipped keys, follow endorsements to a fixed point; then take the retirements signed by
   * a believed key that names itself the successor (the first one per retired key wins), and follow
   * again with those in force, until no retirement is added.
   */
  private async compute(learned: string[]): Promise<Map<string, Entry>> {
    const pool = [...shippedStatements(this.shipped), ...learned].flatMap((raw) => {
      const statement = parseStatement(raw);
      return statement ? [{ ...statement, raw }] : [];
    });
    const retired = new Map<string, Retired & { raw: string }>();
    for (;;) {
      const used = new Set<string>();
      const trusted = await this.follow(pool, retired, used);
      let added = false;
      for (const s of pool) {
        if (s.type !== 'retirement' || retired.has(s.claims.kid) || s.claims.successor !== s.signer) continue;
        if (!(await this.signedBy(trusted.get(s.signer), s))) continue;
        retired.set(s.claims.kid, { compromisedAt: s.claims.compromisedAt, successor: s.claims.successor, raw: s.raw });
        added = true;
      }
      if (added) continue;
      for (const [kid, r] of retired) {
        used.add(r.raw);
        const entry = trusted.get(kid);
        if (entry) entry.compromisedAt = r.compromisedAt;
      }
      this.used = used;
      return trusted;
    }
  }

  private async follow(pool: Item[], retired: Map<string, Retired>, used: Set<string>): Promise<Map<string, Entry>> {
    const trusted = roots(this.shipped);
    for (let changed = true; changed; ) {
      changed = false;
      for (const s of pool) {
        if (s.type !== 'endorsement' || trusted.has(s.claims.kid)) continue;
        const by = retired.get(s.signer);
        // A compromised key's endorsement may be forged whatever date it bears: only the named successor counts.
        if (by && by.successor !== s.claims.kid) continue;
        if (!(await this.signedBy(trusted.get(s.signer), s))) continue;
        trusted.set(s.claims.kid, { x: s.claims.x, compromisedAt: null });
        used.add(s.raw);
        changed = true;
      }
    }
    return trusted;
  }

  private async signedBy(signer: Entry | undefined, s: Item): Promise<boolean> {
    if (!signer) return false;
    const id = `${signer.x} ${s.raw}`;
    let result = this.checked.get(id);
    if (!result) {
      // Statements come from the network: whoever answers in the service's place may send many.
      if (this.checked.size >= MAX_CHECKED) this.checked.clear();
      result = this.importKey(signer.x).then(async (key) => {
        if (!key) return false;
        try {
          return await crypto.subtle.verify('Ed25519', key, s.signature as BufferSource, s.signingInput as BufferSource);
        } catch {
          return false;
        }
      });
      this.checked.set(id, result);
    }
    return result;
  }

  private importKey(x: string): Promise<CryptoKey | null> {
    let key = this.keys.get(x);
    if (!key) {
      key = crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, { name: 'Ed25519' }, false, ['verify']).catch(() => null);
      this.keys.set(x, key);
    }
    return key;
  }
}

/** The shipped JWKS's own keys: believed as they are, with a compromise the JWKS itself records. */
function roots(jwks: Jwks): Map<string, Entry> {
  const map = new Map<string, Entry>();
  for (const jwk of Array.isArray(jwks?.keys) ? jwks.keys : []) {
    if (!jwk || typeof jwk.kid !== 'string' || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    if (jwk.alg !== undefined && jwk.alg !== 'EdDSA' && jwk.alg !== 'Ed25519') continue;
    const compromisedAt = (jwk as { compromisedAt?: unknown }).compromisedAt;
    if (!map.has(jwk.kid)) map.set(jwk.kid, { x: jwk.x, compromisedAt: Number.isSafeInteger(compromisedAt) ? (compromisedAt as number) : null });
  }
  return map;
}

function shippedStatements(jwks: Jwks): string[] {
  return statementsOf(jwks);
}

/** The endorsements and retirements a JWKS carries (docs/key-rotation.md), oldest key first. */
function statementsOf(jwks: unknown): string[] {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  return keys
    .slice()
    .reverse()
    .flatMap((k: { endorsement?: unknown; retirement?: unknown } | null) => [k?.endorsement, k?.retirement])
    .filter((s): s is string => typeof s === 'string');
}
