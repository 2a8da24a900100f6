import { purchaseRepositoryContract } from './purchase-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) purchaseRepositoryContract(factory);
