import { licenseOriginContract } from './license-origin.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseOriginContract(factory);
