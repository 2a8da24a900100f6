import { consoleRepositoriesContract } from './console-repositories.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) consoleRepositoriesContract(factory);
