import { API_KEY_PREFIX } from '../domain/developer.ts';
import { entitlementsMessage, entitlementsProblem, isEntitlementCode } from '../domain/entitlements.ts';
import { parseLicenseKey } from '../domain/license-key.ts';
import { PRODUCT_SCOPE_MESSAGE, productScope } from '../domain/product.ts';
import { holdLease, type HeldLease, type LeaseOptions } from './lease.ts';
import { verifyLeaseToken, type LeaseTokenCheck } from './lease-token.ts';
import { activateMachine, deactivateMachine, listMachines, type ActivateOptions, type ActivationResult, type HolderContext, type MachineActivation, type MachineActivations } from './activations.ts';
import { CACHE_FILE, deserialize, LocalStorageStore, MemoryStore, serialize, type CacheFile, type CacheRecord, type CacheStore } from './cache.ts';
import { normalizeBaseUrl } from './base-url.ts';
import { defaultCacheDir, safeAppName } from './cache-location.ts';
import { checkLicense, legacyField, scopeField } from './check.ts';
import { entitlementSources, holds } from './entitlements.ts';
import { realSleep, runCheckout, type CheckoutOptions } from './checkout.ts';
import { FileStore } from './file-store.ts';
import { machineFingerprint, machineName, productFingerprint } from './fingerprint.ts';
import { checkMachineFile, type MachineFileVerdict } from './machine-file.ts';
import { ApiError } from './errors.ts';
import { recall, remember, storeKey, withoutKey } from './memory.ts';
import { Http, networkError } from './http.ts';
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
  private legacy: Promise<string> | undefined;

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
    // An identity token is bound to the device that signed in (CONTRACT.md's deviceFingerprint): the
    // machine as the CLI names it too, so a token from `licensing login` works here and back.
    this.session = new CustomerSession(this.http, () => this.deviceFingerprint(), (key, license) => this.storeKey(key, license));
    this.verifier = new OfflineVerifier(options.publicKeys);
    this.now = options.now ?? Date.now;
    // docs/key-rotation.md: keys learned from the seller's endorsements, kept in their own file.
    let keys: Promise<CacheStore> | undefined;
    this.verifier.trust.attach({ store: () => (keys ??= openStore(options, KEYS_FILE)), fetchJwks: (developerId) => this.sellerJwks(developerId), now: this.now });
  }

  /** The spec's five steps; `{ online: true }` asks the server whatever the cache says. */
  async check(options: CheckOptions = {}): Promise<LicenseCheckResult> {
    const entitlements = options.entitlements;
    if (entitlements !== undefined && (!Array.isArray(entitlements) || entitlementsProblem('entitlements', entitlements))) {
      throw new TypeError(`check({ entitlements }): ${entitlementsMessage('entitlements')}`);
    }
    return checkLicense({
      http: this.http,
      apiKey: this.options.apiKey,
      productIds: this.productIds,
      verifier: this.verifier,
      now: this.now(),
      fingerprint: await this.fingerprint(),
      machineName: await machineName(),
      legacyFingerprint: (await this.legacyFingerprints())[0],
      maxOfflineDays: this.options.maxOfflineDays,
      clockToleranceMs: this.options.clockToleranceMs ?? CLOCK_TOLERANCE_MS,
      online: options.online === true,
      entitlements,
      onError: this.options.onError,
      load: () => this.load(),
      save: (record) => this.save(record),
    });
  }

  /**
   * Whether the license holds the entitlement `code` (case-insensitive), read only from what this
   * client verified with the seller's keys: the stored key's claims and the last signed validation
   * answer, the freshest by its signed time (docs/entitlements.md). No network: check() refreshes
   * the evidence. False without a key, for a key that does not verify, is of another product or is
   * past its end, and after a signed refusal (revoked, expired, another machine).
   */
  async has(code: string): Promise<boolean> {
    if (!isEntitlementCode(code)) return false;
    const record = await this.load();
    if (!record) return false;
    const now = this.now();
    const key = await this.verifier.verify(record.licenseKey, now);
    if (key.ok && !this.productIds.includes(key.claims.productId)) return false;
    return holds(await entitlementSources({ record, key, now }), code);
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

  /**
   * This machine as licenses see it (docs/machine-files.md): the `fingerprint` option, else
   * LICENSING_FINGERPRINT (unless ignoreFingerprintEnv), else the OS machine id hashed with this application’s (first) product.
   */
  fingerprint(): Promise<string> {
    this.machine ??=
      this.options.fingerprint !== undefined ? Promise.resolve(this.options.fingerprint) : productFingerprint(this.productIds[0]!, undefined, { ignoreEnv: this.options.ignoreFingerprintEnv === true });
    return this.machine;
  }

  /** The device an identity token is bound to: the `fingerprint` option, else the CONTRACT.md fingerprint. */
  private deviceFingerprint(): Promise<string> {
    if (this.options.fingerprint !== undefined) return Promise.resolve(this.options.fingerprint);
    this.legacy ??= machineFingerprint();
    return this.legacy;
  }

  /**
   * The fingerprint clients computed before (CONTRACT.md: host name, user, OS, architecture), sent
   * beside the current one so a machine bound by it moves to the current one (docs/machine-files.md,
   * "Migration"). None when the application chose its own fingerprint.
   */
  private async legacyFingerprints(): Promise<string[]> {
    if (this.options.fingerprint !== undefined) return [];
    const legacy = await this.deviceFingerprint();
    return legacy === (await this.fingerprint()) ? [] : [legacy];
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

  // Machine files (docs/machine-files.md): a license checked out to this machine for offline use.
  /**
   * Verifies a machine file with no network: the seller's signature, this machine, its issue time
   * (5 minutes' drift), the highest time this client has seen, its expiry. A valid one raises that
   * mark to this clock's time, so a clock set back later is noticed even on a machine that never
   * reaches the server.
   */
  async verifyMachineFile(machineFile: string): Promise<MachineFileVerdict> {
    const file = await this.readFile();
    const now = this.now();
    const highestSeen = Math.max(file.serverTime ?? 0, file.seenAt ?? 0) || null;
    const fingerprints = [await this.fingerprint(), ...(await this.legacyFingerprints())];
    const check = { fingerprint: fingerprints, now, highestSeen, clockToleranceMs: this.options.clockToleranceMs, productId: this.productIds };
    const verdict = await checkMachineFile(this.verifier.trust, typeof machineFile === 'string' ? machineFile.trim() : machineFile, check);
    if (verdict.valid && now > (file.seenAt ?? 0)) await this.writeFile({ ...file, seenAt: now, serverTime: Math.max(file.serverTime ?? 0, verdict.file.issuedAt) });
    if (verdict.valid) await this.rememberMachineFile(machineFile.trim(), verdict.file);
    return verdict;
  }

  /** A verified file of the stored license is one more source of what it holds (has()), kept as it came; a newer one replaces it. */
  private async rememberMachineFile(text: string, { licenseId, features, issuedAt, expiresAt }: { licenseId: string; features: string[]; issuedAt: number; expiresAt: number }): Promise<void> {
    const record = await this.load();
    if (!record || record.licenseId !== licenseId || (record.machineFile && record.machineFile.issuedAt > issuedAt)) return;
    await this.save({ ...record, machineFile: { text, features, issuedAt, expiresAt } });
  }

  /**
   * The offline request file for a machine with no network (JSON text): the buyer carries it to a
   * connected machine, and the seller's server turns it into a machine file (POST /licenses/{id}/machine-files).
   */
  async machineFileRequest(): Promise<string> {
    const record = await this.load();
    if (!record) throw new TypeError('No license key is stored: call storeLicenseKey() first.');
    const legacy = legacyField((await this.legacyFingerprints())[0]);
    return JSON.stringify({ licenseKey: record.licenseKey, machineFingerprint: await this.fingerprint(), ...legacy, productId: scopeField(this.productIds) }, null, 2);
  }

  /** POST /licenses/machine-file for this machine; the file is verified before it is returned. */
  async requestMachineFile(options: { ttlDays?: number } = {}): Promise<{ machineFile: string; expiresAt: number }> {
    const request = JSON.parse(await this.machineFileRequest()) as Record<string, unknown>;
    const answer = await this.http.send('POST', '/licenses/machine-file', { apiKey: this.options.apiKey, body: { ...request, ...(options.ttlDays !== undefined && { ttlDays: options.ttlDays }) } });
    if (answer.kind === 'unreachable') throw networkError(answer.cause);
    if (answer.kind === 'error') throw answer.error;
    const machineFile = (answer.body as { machineFile?: unknown } | null)?.machineFile;
    const verdict = await this.verifyMachineFile(typeof machineFile === 'string' ? machineFile : '');
    if (!verdict.valid) throw new ApiError(answer.status, 'unverified_answer', `The machine file the service answered does not verify here (${verdict.reason}).`);
    return { machineFile: machineFile as string, expiresAt: verdict.file.expiresAt };
  }

  /** GET /developers/:id/jwks.json: looked at only for a key the application does not know yet. */
  private async sellerJwks(developerId: string): Promise<unknown> {
    const answer = await this.http.send('GET', `/developers/${encodeURIComponent(developerId)}/jwks.json`);
    return answer.kind === 'ok' ? answer.body : null;
  }

  private async holder(): Promise<HolderContext> {
    const fingerprint = await this.fingerprint();
    const legacyFingerprint = (await this.legacyFingerprints())[0];
    return { http: this.http, apiKey: this.options.apiKey, productIds: this.productIds, verifier: this.verifier, fingerprint, legacyFingerprint, load: () => this.load(), save: (record) => this.save(record) };
  }

  private async storeKey(key: string, license: LicenseDetails | null): Promise<void> {
    const parsed = parseLicenseKey(key);
    if (!parsed.ok) throw new TypeError(`Not a license key (${parsed.reason}).`);
    // The latest server time and the license's memory survive a new key (memory.ts).
    await this.writeFile(storeKey(await this.readFile(), key, parsed.key.claims.id, license, this.now()));
  }

  /** The current key with its license's memory, the stored signed answer verified again. */
  private async load(): Promise<CacheRecord | null> {
    return recall(await this.readFile(), this.verifier, await this.fingerprint(), this.options.clockToleranceMs ?? CLOCK_TOLERANCE_MS, (await this.legacyFingerprints())[0]);
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
