import { subscriptionEventsContract } from './subscription-events.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

// Every store writes a subscription's events in its change's transaction, and the sweep's once.
for (const factory of STORE_FACTORIES) subscriptionEventsContract(factory);
