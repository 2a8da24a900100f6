import { checkoutCompletionContract } from './checkout-completion.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) checkoutCompletionContract(factory);
