/**
 * docs/operating.md, "Memory": JavaScriptCore sizes its heap from the machine's RAM, so on a host
 * with 24 GiB it lets garbage pile up to hundreds of megabytes between collections. MEMORY_BUDGET_MB
 * (default 512) is the RAM it is told the machine has (Bun reads BUN_JSC_forceRAMSize when the
 * process starts): the heap grows, and is collected, as on a machine of that size. Nothing caps the
 * process: a service that needs more still gets it, collecting more often.
 *
 * The variable is read only at start-up, so the entry point restarts itself once with it set,
 * through execve: the same process id, arguments, flags and environment, nothing opened yet.
 */

/** The runtime's own variable (bytes); an operator who sets it decides alone. */
export const HEAP_RAM_ENV = 'BUN_JSC_forceRAMSize';
export const DEFAULT_MEMORY_BUDGET_MB = 512;
const MIN_MB = 128;
const MAX_MB = 1_048_576;

export const MEMORY_BUDGET_PROBLEM = `MEMORY_BUDGET_MB must be 0 (the runtime sizes its heap from the machine's memory) or a whole number of megabytes from ${MIN_MB} to ${MAX_MB}.`;

/** MEMORY_BUDGET_MB: megabytes, 0 for off, or null when malformed (start-up then refuses with MEMORY_BUDGET_PROBLEM). */
export function parseMemoryBudget(value: string | undefined): number | null {
  if (value === undefined || value === '') return DEFAULT_MEMORY_BUDGET_MB;
  if (!/^\d{1,7}$/.test(value)) return null;
  const mb = Number(value);
  return mb === 0 || (mb >= MIN_MB && mb <= MAX_MB) ? mb : null;
}

interface Runtime {
  env: Record<string, string | undefined>;
  /** Bun.main: the entry file, under /$bunfs/ in a single binary. */
  main: string;
  argv: string[];
  execArgv: string[];
  execPath: string;
}

/** The command that restarts this process with the budget set, or null when nothing needs to change. */
export function budgetedRestart(runtime: Runtime): { path: string; args: string[]; env: Record<string, string> } | null {
  const { env } = runtime;
  if (env[HEAP_RAM_ENV] !== undefined) return null;
  const mb = parseMemoryBudget(env.MEMORY_BUDGET_MB);
  if (mb === null || mb === 0) return null;
  // A single binary's argv is ["bun", its own entry, ...arguments]; `bun [flags] run file` keeps its flags in execArgv.
  const compiled = runtime.main.startsWith('/$bunfs/');
  const args = compiled ? runtime.argv.slice(2) : [...runtime.execArgv, ...runtime.argv.slice(1)];
  const next: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) next[name] = value;
  next[HEAP_RAM_ENV] = String(mb * 1024 * 1024);
  return { path: runtime.execPath, args: [runtime.execPath, ...args], env: next };
}

/** Restarts this process with the budget when it lacks it; returns only when it needs none (or execve is unavailable). */
export function applyMemoryBudget(): void {
  const restart = budgetedRestart({ env: process.env, main: Bun.main, argv: process.argv, execArgv: process.execArgv, execPath: process.execPath });
  if (!restart) return;
  const execve = (process as { execve?: (path: string, args: string[], env: Record<string, string>) => never }).execve;
  if (typeof execve !== 'function') return;
  try {
    execve(restart.path, restart.args, restart.env);
  } catch (error) {
    // Served without it rather than not at all; said once, on standard error, before the logger exists.
    console.error(`MEMORY_BUDGET_MB not applied (${error instanceof Error ? error.message : String(error)}): the heap is sized from the machine's memory.`);
  }
}
