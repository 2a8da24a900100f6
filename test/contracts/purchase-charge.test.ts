import { purchaseChargeContract } from './purchase-charge.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) purchaseChargeContract(factory);
