import { cardRepositoryContract } from './card-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) cardRepositoryContract(factory);
