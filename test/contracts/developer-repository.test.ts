import { developerRepositoryContract } from './developer-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) developerRepositoryContract(factory);
