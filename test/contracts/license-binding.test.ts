import { licenseBindingContract } from './license-binding.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseBindingContract(factory);
