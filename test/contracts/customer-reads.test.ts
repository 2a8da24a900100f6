import { customerReadsContract } from './customer-reads.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) customerReadsContract(factory);
