import { identityTokenRepositoryContract } from './identity-token-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) identityTokenRepositoryContract(factory);
