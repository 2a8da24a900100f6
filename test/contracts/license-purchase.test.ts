import { licensePurchaseContract } from './license-purchase.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licensePurchaseContract(factory);
