import { trialRequestContract } from './trial-request-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) trialRequestContract(factory);
