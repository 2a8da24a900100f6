import { licenseByCustomerContract } from './license-by-customer.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseByCustomerContract(factory);
