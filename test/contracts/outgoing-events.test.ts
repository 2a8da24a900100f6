import { outgoingEventsContract } from './outgoing-events.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

// The memory store writes no events (it is on its way out); every SQL store does, in the change's transaction.
for (const factory of STORE_FACTORIES.filter((f) => f.name !== 'memory')) outgoingEventsContract(factory);
