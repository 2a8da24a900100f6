import { mailOutboxContract } from './mail-outbox.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) mailOutboxContract(factory);
