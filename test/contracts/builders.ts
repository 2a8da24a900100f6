import { randomUUID } from 'node:crypto';
import type { Customer } from '../../src/domain/customer.ts';
import type { ApiKeyRecord, SigningKey } from '../../src/domain/developer.ts';
import type { License } from '../../src/domain/license.ts';
import type { Product } from '../../src/domain/product.ts';
import type { Store } from '../../src/ports/deps.ts';
import type { NewAccount } from '../../src/ports/developer-repository.ts';

export const T0 = Date.UTC(2026, 0, 1);
export const DAY = 86_400_000;

/** Unique within the run, so records of different tests never collide. */
export const unique = (): string => randomUUID().replaceAll('-', '').slice(0, 16);

export function anApiKey(developerId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return { id: `key_${unique()}`, developerId, scope: 'secret', keyHash: `hash_${unique()}`, createdAt: T0, revokedAt: null, lastUsedAt: null, ...overrides };
}

export function aSigningKey(developerId: string, overrides: Partial<SigningKey> = {}): SigningKey {
  return {
    kid: `kid_${unique()}`,
    developerId,
    publicKey: `pub_${unique()}`,
    sealedPrivateKey: `sealed_${unique()}`,
    createdAt: T0,
    active: true,
    notBefore: overrides.createdAt ?? T0,
    endorsement: null,
    compromisedAt: null,
    retirement: null,
    ...overrides,
  };
}

/** A developer with a secret and a publishable key and one active signing key. */
export function anAccount(overrides: { id?: string; email?: string; name?: string; createdAt?: number } = {}): NewAccount {
  const id = overrides.id ?? `dev_${unique()}`;
  const createdAt = overrides.createdAt ?? T0;
  return {
    developer: { id, email: overrides.email ?? `dev-${unique()}@example.com`, name: overrides.name ?? 'Acme Tools', createdAt },
    apiKeys: [anApiKey(id, { createdAt }), anApiKey(id, { scope: 'publishable', createdAt })],
    signingKey: aSigningKey(id, { createdAt }),
  };
}

export function aProduct(developerId: string, overrides: Partial<Product> = {}): Product {
  return {
    id: `prod_${unique()}`,
    developerId,
    name: 'Pro Edition',
    price: 4_900,
    currency: 'usd',
    features: ['export', 'sync'],
    licenseDays: 365,
    maxMachines: 1,
    deactivationsPer30Days: 3,
    interval: null,
    graceDays: 3,
    trialDays: null,
    maxLeases: null,
    leaseSeconds: 600,
    maxBorrowHours: 0,
    active: true,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aCustomer(overrides: Partial<Customer> = {}): Customer {
  return { id: `cus_${unique()}`, email: `buyer-${unique()}@example.com`, phone: '+15555550123', phoneVerifiedAt: T0, createdAt: T0, ...overrides };
}

export function aLicense(parties: { developerId: string; productId: string; customerId: string }, overrides: Partial<License> = {}): License {
  return {
    id: `lic_${unique()}`,
    ...parties,
    storedStatus: 'active',
    features: ['export', 'sync'],
    issuedAt: T0,
    expiresAt: T0 + 365 * DAY,
    machineFingerprint: null,
    maxMachines: 1,
    licenseKey: `header.${unique()}.signature`,
    trial: false,
    subscriptionId: null,
    ...overrides,
  };
}

/** Stores a new developer account and returns it. */
export async function givenDeveloper(store: Store, overrides: Parameters<typeof anAccount>[0] = {}): Promise<NewAccount> {
  const account = anAccount(overrides);
  await store.developers.createAccount(account);
  return account;
}

/** Stores what a license points at (SQLite enforces the foreign keys): developer, product, customer. */
export async function givenLicenseParties(store: Store) {
  const { developer } = await givenDeveloper(store);
  const product = aProduct(developer.id);
  await store.products.create(product);
  const customer = await store.customers.findOrCreate(aCustomer());
  return { developerId: developer.id, productId: product.id, customerId: customer.id };
}

/** Stores a license (and its parties) and returns it with the digest of its key. */
export async function givenLicense(store: Store, overrides: Partial<License> = {}) {
  const license = aLicense(await givenLicenseParties(store), overrides);
  const keyHash = `hash_${unique()}`;
  await store.licenses.create(license, keyHash);
  return { license, keyHash };
}

/**
 * The single-machine binding as it was before activations (maxMachines 1): takes the slot if free,
 * then answers the machine the license is bound to now (the caller's, or the winner's); null = no license.
 */
export async function bindMachine(store: Pick<Store, 'licenses'>, licenseId: string, machineFingerprint: string, at: number): Promise<string | null> {
  const outcome = await store.licenses.activate(licenseId, { id: `act_${unique()}`, machineFingerprint, name: null, at });
  // Licenses built here are not trials: trial_used cannot happen, but the type allows it.
  if (outcome.kind === 'missing' || outcome.kind === 'trial_used') return null;
  return outcome.kind === 'full' ? outcome.activations[0]!.machineFingerprint : outcome.activation.machineFingerprint;
}

/** The one machine a single-machine license's state says it is bound to (null = unbound). */
export const boundMachine = (state: { activations: { machineFingerprint: string }[] } | null): string | null =>
  state?.activations[0]?.machineFingerprint ?? null;
