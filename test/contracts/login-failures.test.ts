import { loginFailuresContract } from './login-failures.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) loginFailuresContract(factory);
