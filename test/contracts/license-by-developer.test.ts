import { licenseByDeveloperContract } from './license-by-developer.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseByDeveloperContract(factory);
