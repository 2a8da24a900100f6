import { signingKeyRepositoryContract } from './signing-key-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) signingKeyRepositoryContract(factory);
