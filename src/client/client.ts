import { API_KEY_PREFIX } from '../domain/developer.ts';
import { parseLicenseKey } from '../domain/license-key.ts';
import { PRODUCT_SCOPE_MESSAGE, productScope } from '../domain/product.ts';
import { holdLease, type HeldLease, type LeaseOptions } from './lease.ts';
import { verifyLeaseToken, type LeaseTokenCheck } from './lease-token.ts';
import { activateMachine, deactivateMachine, listMachines, type ActivateOptions, type ActivationResult, type HolderContext, type MachineActivation, type MachineActivations } from './activations.ts';
import { CACHE_FILE, deserialize, LocalStorageStore, MemoryStore, serialize, type CacheFile, type CacheRecord, type CacheStore } from './cache.ts';
import { normalizeBaseUrl } from './base-url.ts';
import { defaultCacheDir, safeAppName } from './cache-location.ts';
import { checkLicense } from './check.ts';
import { realSleep, runCheckout, type CheckoutOptions } from './checkout.ts';
import { FileStore } from './file-store.ts';
import { machineFingerprint } from './fingerprint.ts';
import { recall, remember, storeKey, withoutKey } from './memory.ts';
import { Http } from './http.ts';
import { extractLicenseInfo, OfflineVerifier } from './offline.ts';
import { browserStorage, nodeModules } from './platform.ts';
import { CustomerSession, type CodeSent, type CustomerLicense, type PurchaseOffer } from './terminal.ts';
import { KEYS_FILE } from './trust.ts';
import { confirmTrial, requestTrial, startTrial, type StartedTrial, type StartTrialOptions } from './trial.ts';
import { CACHE_REFRESH_MS, CLOCK_TOLERANCE_MS, type CheckOptions, type LicenseCheckResult, type LicenseClientOptions, type LicenseDetails } from './types.ts';

const DEFAULT_APP_NAME = 'licensing-app';

/** What an application embeds: offline-first license checks, checkout, and the terminal purchase flow. */
export class LicenseClient {
  private readonly options: LicenseClientOptions;
  private readonly productIds: readonly string[];
  private readonly verifier: OfflineVerifier;
  private readonly now: () => number;
  private readonly http: Http;
  private readonly session: CustomerSession;
  private store: Promise<CacheStore> | undefined;
  private machine: Promise<string> | undefined;

  constructor(options: LicenseClientOptions) {
    if (!options?.baseUrl) throw new TypeError('LicenseClient needs a baseUrl, e.g. https://licensing.example.com/v1');
    if (!options.apiKey) throw new TypeError('LicenseClient needs an apiKey (a publishable key, pk_…)');
    if (typeof options.apiKey !== 'string' || options.apiKey.startsWith(API_KEY_PREFIX.secret)) {
      throw new TypeError('LicenseClient was given a secret key (sk_…): it must never ship inside an application, where anyone can read it. Use the publishable key (pk_…, publishableKey at signup), and revoke this secret key if it was ever shipped.');
    }
    const productIds = productScope(options.productId);
    if (!productIds) throw new TypeError(`LicenseClient needs the productId of this application (one id, or a list of its editions): ${PRODUCT_SCOPE_MESSAGE} A key of any other product of the seller is then not_found.`);
    this.productIds = productIds;
    if (!Array.isArray(options.publicKeys?.keys)) throw new TypeError('LicenseClient needs publicKeys: the seller’s JWK Set ({ keys: [...] })');
    const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    this.options = options;
    this.http = new Http(normalizeBaseUrl(options.baseUrl), fetchFn as typeof fetch);
    this.session = new CustomerSession(this.http, () => this.fingerprint(), (key, license) => this.storeKey(key, license));
    this.verifier = new OfflineVerifier(options.publicKeys);
    this.now = options.now ?? Date.now;
    // docs/key-rotation.md: keys learned from the seller's endorsements, kept in their own file.
    let keys: Promise<CacheStore> | undefined;
    this.verifier.trust.attach({ store: () => (keys ??= openStore(options, KEYS_FILE)), fetchJwks: (developerId) => this.sellerJwks(developerId), now: this.now });
  }

  /** The spec's five steps; `{ online: true }` asks the server whatever the cache says. */
  async check(options: CheckOptions = {}): Promise<LicenseCheckResult> {
    return checkLicense({
      http: this.http,
      apiKey: this.options.apiKey,
      productIds: this.productIds,
      verifier: this.verifier,
      now: this.now(),
      fingerprint: await this.fingerprint(),
      maxOfflineDays: this.options.maxOfflineDays,
      clockToleranceMs: this.options.clockToleranceMs ?? CLOCK_TOLERANCE_MS,
      online: options.online === true,
      onError: this.options.onError,
      load: () => this.load(),
      save: (record) => this.save(record),
    });
  }

  /**
   * Stores a key (its structure and product checked, not its signature: check() does that). A key
   * of another product is refused (TypeError) and the stored one kept. Storing a key again, or
   * another key of the same license, keeps what this machine learnt of the license: a revocation
   * stands, and the offline allowance counts from the first time it was stored here.
   */
  async storeLicenseKey(key: string): Promise<void> {
    const trimmed = typeof key === 'string' ? key.trim() : key;
    const parsed = parseLicenseKey(trimmed);
    if (parsed.ok && !this.productIds.includes(parsed.key.claims.productId)) {
      throw new TypeError(`This license key is for another product (${parsed.key.claims.productId}); this application is ${this.productIds.join(', ')}.`);
    }
    await this.storeKey(trimmed, null);
  }

  async getCachedLicenseKey(): Promise<string | null> {
    return (await this.load())?.licenseKey ?? null;
  }

  /** Forgets the stored key. What this machine learnt of its license (a revocation, when it was first stored) stays. */
  async clearCache(): Promise<void> {
    const file = await this.readFile();
    if (file.current === null && Object.keys(file.licenses).length === 0) return (await this.cache()).remove();
    await this.writeFile(withoutKey(file));
  }

  /** No verification: for display only. Null for anything that is not a license key. */
  extractLicenseInfo(key: string): LicenseDetails | null {
    return typeof key === 'string' ? extractLicenseInfo(key.trim(), this.now()) : null;
  }

  /** True when the server has not been asked for 24 hours (or ever). */
  async needsRefresh(): Promise<boolean> {
    const refreshedAt = (await this.load())?.refreshedAt ?? null;
    return refreshedAt === null || this.now() - refreshedAt >= CACHE_REFRESH_MS;
  }

  fingerprint(): Promise<string> {
    this.machine ??= this.options.fingerprint !== undefined ? Promise.resolve(this.options.fingerprint) : machineFingerprint();
    return this.machine;
  }

  // The holder's machines (docs/activations.md): the stored key is the proof; answers are verified like check()'s.
  /** Takes a slot for this machine (idempotent); a full license throws ActivationLimitError naming the machines. */
  async activate(options: ActivateOptions = {}): Promise<ActivationResult> {
    return activateMachine(await this.holder(), options);
  }

  /** Frees this machine's slot (at most the product's quota per 30 days) and forgets the local binding. */
  async deactivate(): Promise<MachineActivation> {
    return deactivateMachine(await this.holder());
  }

  /**
   * A floating lease for this machine (docs/leases.md): checked out now (ApiError 409 lease_limit
   * when every seat is taken), kept by heartbeats that never throw (failures go to onError), given
   * back by release() or on SIGINT, SIGTERM and beforeExit.
   */
  async lease(options: LeaseOptions = {}): Promise<HeldLease> {
    return holdLease(await this.holder(), options);
  }

  /** A borrowed lease's token, checked with no network: trusted signature, this machine, this application's product, not past its end. */
  async verifyLeaseToken(token: string): Promise<LeaseTokenCheck> {
    return verifyLeaseToken(this.verifier, token, { machineFingerprint: await this.fingerprint(), productIds: this.productIds, now: this.now() });
  }

  /** The license's machines, `thisMachine` marking this one. */
  async activations(): Promise<MachineActivations> {
    return listMachines(await this.holder());
  }

  /**
   * Starts the product's free trial on this machine and stores its key (docs/trials.md): the service
   * e-mails the buyer a code, which `options.code` asks for (again after a wrong one).
   */
  async startTrial(options: StartTrialOptions): Promise<StartedTrial> {
    return startTrial(await this.trialContext(), options);
  }

  /**
   * The trial in two steps, for applications that ask for the code elsewhere (another screen, a later
   * run): the code is e-mailed and the request named; `started` when the service starts it at once.
   */
  async requestTrial(options: Omit<StartTrialOptions, 'code'>): Promise<{ trialRequestId: string; expiresIn: number } | { started: StartedTrial }> {
    return requestTrial(await this.trialContext(), options);
  }

  /** The second step: the e-mailed code starts the requested trial of `productId`; its key is stored. */
  async confirmTrial(input: { productId: string; trialRequestId: string; otp: string }): Promise<StartedTrial> {
    return confirmTrial(await this.trialContext(), input);
  }

  private async trialContext() {
    return { http: this.http, apiKey: this.options.apiKey, fingerprint: await this.fingerprint(), storeKey: (key: string, license: LicenseDetails) => this.storeKey(key, license) };
  }

  /** Hosted checkout; the key is stored once the payment completes. */
  async checkout(options: CheckoutOptions): Promise<{ licenseKey: string; license: LicenseDetails }> {
    const done = await runCheckout({ http: this.http, apiKey: this.options.apiKey, now: this.now, sleep: this.options.sleep ?? realSleep }, options);
    await this.storeKey(done.licenseKey, done.license);
    return done;
  }

  // The terminal flow (SPEC.md section 1): the identity token stays in memory on this object.
  loginInit(email: string): Promise<CodeSent> {
    return this.session.loginInit(email);
  }

  loginVerify(input: { email: string; otpId: string; otp: string }): Promise<{ identityToken: string; licenses: CustomerLicense[] }> {
    return this.session.loginVerify(input);
  }

  setIdentityToken(token: string | null): void {
    this.session.setIdentityToken(token);
  }

  logout(): Promise<void> {
    return this.session.logout();
  }

  purchaseInit(productId: string): Promise<PurchaseOffer> {
    return this.session.purchaseInit(productId);
  }

  purchaseOtp(purchaseId: string): Promise<CodeSent> {
    return this.session.purchaseOtp(purchaseId);
  }

  /** Charges the saved card and stores the new key. */
  purchaseConfirm(input: { purchaseId: string; otpId: string; otp: string; cardId: string }): Promise<{ license: LicenseDetails; licenseKey: string }> {
    return this.session.purchaseConfirm(input);
  }

  /** GET /developers/:id/jwks.json: looked at only for a key the application does not know yet. */
  private async sellerJwks(developerId: string): Promise<unknown> {
    const answer = await this.http.send('GET', `/developers/${encodeURIComponent(developerId)}/jwks.json`);
    return answer.kind === 'ok' ? answer.body : null;
  }

  private async holder(): Promise<HolderContext> {
    const fingerprint = await this.fingerprint();
    return { http: this.http, apiKey: this.options.apiKey, productIds: this.productIds, verifier: this.verifier, fingerprint, load: () => this.load(), save: (record) => this.save(record) };
  }

  private async storeKey(key: string, license: LicenseDetails | null): Promise<void> {
    const parsed = parseLicenseKey(key);
    if (!parsed.ok) throw new TypeError(`Not a license key (${parsed.reason}).`);
    // The latest server time and the license's memory survive a new key (memory.ts).
    await this.writeFile(storeKey(await this.readFile(), key, parsed.key.claims.id, license, this.now()));
  }

  /** The current key with its license's memory, the stored signed answer verified again. */
  private async load(): Promise<CacheRecord | null> {
    return recall(await this.readFile(), this.verifier, await this.fingerprint(), this.options.clockToleranceMs ?? CLOCK_TOLERANCE_MS);
  }

  private async save(record: CacheRecord): Promise<void> {
    await this.writeFile(remember(await this.readFile(), record));
  }

  private async readFile(): Promise<CacheFile> {
    return deserialize(await (await this.cache()).read());
  }

  private async writeFile(file: CacheFile): Promise<void> {
    await (await this.cache()).write(serialize(file));
  }

  private cache(): Promise<CacheStore> {
    this.store ??= openStore(this.options);
    return this.store;
  }
}

/** A file where Node's fs exists, else localStorage in a browser, else memory. */
async function openStore(options: LicenseClientOptions, file = CACHE_FILE): Promise<CacheStore> {
  const appName = safeAppName(options.appName ?? DEFAULT_APP_NAME);
  const node = await nodeModules();
  if (node) {
    const dir = options.cacheDir ?? defaultCacheDir({ appName, platform: node.platform, home: node.os.homedir(), env: node.env, join: node.path.join });
    return new FileStore(node, dir, file);
  }
  const storage = browserStorage();
  return storage ? new LocalStorageStore(storage, `${appName}:${file === CACHE_FILE ? 'license' : 'keys'}`) : new MemoryStore();
}
