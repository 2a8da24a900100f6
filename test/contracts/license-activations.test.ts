import { licenseActivationsContract } from './license-activations.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseActivationsContract(factory);
