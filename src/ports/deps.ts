import type { Clock } from './clock.ts';
import type { Hashing, Signer } from './crypto.ts';
import type { CustomerRepository } from './customer-repository.ts';
import type { DeveloperRepository } from './developer-repository.ts';
import type { Ids } from './ids.ts';
import type { LicenseRepository } from './license-repository.ts';
import type { ProductRepository } from './product-repository.ts';
import type { SigningKeyRepository } from './signing-key-repository.ts';

/** Everything a use case may ask for; each takes only the part it needs. */
export interface Deps {
  clock: Clock;
  ids: Ids;
  hashing: Hashing;
  signer: Signer;
  developers: DeveloperRepository;
  signingKeys: SigningKeyRepository;
  products: ProductRepository;
  customers: CustomerRepository;
  licenses: LicenseRepository;
  /** `iss` of every license key: the service's PUBLIC_BASE_URL. */
  issuer: string;
}

/** A store: the repositories plus its own lifecycle. */
export interface Store {
  developers: DeveloperRepository;
  signingKeys: SigningKeyRepository;
  products: ProductRepository;
  customers: CustomerRepository;
  licenses: LicenseRepository;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
