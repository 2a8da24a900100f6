import { licenseReceiptContract } from './license-receipt.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) licenseReceiptContract(factory);
