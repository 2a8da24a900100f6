import { incomingWebhookEventRepositoryContract } from './incoming-webhook-event-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) incomingWebhookEventRepositoryContract(factory);
