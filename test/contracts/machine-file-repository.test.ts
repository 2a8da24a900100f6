import { machineFileRepositoryContract } from './machine-file-repository.contract.ts';
import { STORE_FACTORIES } from './stores.ts';

for (const factory of STORE_FACTORIES) machineFileRepositoryContract(factory);
