import type { Store } from '../../ports/deps.ts';
import { MemoryCustomerRepository } from './memory-customer-repository.ts';
import { MemoryDeveloperRepository } from './memory-developer-repository.ts';
import { MemoryLicenseRepository } from './memory-license-repository.ts';
import { MemoryProductRepository } from './memory-product-repository.ts';
import { MemorySigningKeyRepository } from './memory-signing-key-repository.ts';
import { MemoryTables } from './memory-tables.ts';

/** A store that lives and dies with the process, held to the same contract suite as SQLite. */
export function openMemoryStore(): Store {
  const tables = new MemoryTables();
  let open = true;
  return {
    developers: new MemoryDeveloperRepository(tables),
    signingKeys: new MemorySigningKeyRepository(tables),
    products: new MemoryProductRepository(tables),
    customers: new MemoryCustomerRepository(tables),
    licenses: new MemoryLicenseRepository(tables),
    ping: async () => open,
    close: async () => {
      open = false;
    },
  };
}
