/**
 * The service's entry point (`bun run src/main.ts`, the single binary): the memory budget first, which
 * may restart this process once with the runtime told it (docs/operating.md, "Memory"), then the
 * service itself (service.ts), loaded only after that, so nothing is loaded or opened twice.
 */
import { applyMemoryBudget } from './adapters/system/heap-budget.ts';

applyMemoryBudget();
await import('./service.ts');
