import { STORE_FACTORIES } from '../../contracts/stores.ts';
import { retentionContract } from './retention.contract.ts';

for (const factory of STORE_FACTORIES) retentionContract(factory);
