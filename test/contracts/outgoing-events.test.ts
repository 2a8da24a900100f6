import { outgoingEventsContract } from './outgoing-events.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

// Every store writes its events in the change's transaction.
for (const factory of STORE_FACTORIES) outgoingEventsContract(factory);
