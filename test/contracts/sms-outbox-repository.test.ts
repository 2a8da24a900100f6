import { smsOutboxRepositoryContract } from './sms-outbox-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) smsOutboxRepositoryContract(factory);
