import { checkoutRepositoryContract } from './checkout-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) checkoutRepositoryContract(factory);
