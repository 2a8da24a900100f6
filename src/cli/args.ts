import { UsageError } from './errors.ts';

/** Flags that never take a value; every other `--flag` takes one (`--flag value` or `--flag=value`). */
export const BOOLEAN_FLAGS = new Set(['help', 'json', 'version', 'no-wait', 'browser', 'no-open', 'cached', 'yes', 'compromised']);
/** Flags every command accepts. */
export const GLOBAL_FLAGS = ['api-url', 'config', 'json', 'help'] as const;

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/**
 * A small parser: positionals, `--flag value`, `--flag=value`, boolean flags, `-h`, `-y`, and `--` to end
 * the flags. Flags may come before or after the subcommand; repeating one keeps the last value.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (token === '-h' || token === '-y') {
      flags.set(token === '-h' ? 'help' : 'yes', true);
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) throw new UsageError(`unknown option ${token}`);
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`malformed option ${token}`);
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    if (eq !== -1) {
      flags.set(name, token.slice(eq + 1));
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
    i++;
  }
  return { positionals, flags };
}

/** Typed access to one command's flags; refuses flags the command does not know. */
export class Flags {
  constructor(
    private readonly values: Map<string, string | true>,
    known: readonly string[],
  ) {
    const allowed = new Set<string>([...known, ...GLOBAL_FLAGS]);
    for (const name of values.keys()) if (!allowed.has(name)) throw new UsageError(`unknown option --${name}`);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  string(name: string): string | undefined {
    const value = this.values.get(name);
    if (value === true) throw new UsageError(`--${name} needs a value`);
    return value;
  }

  required(name: string, hint = `--${name} <value>`): string {
    const value = this.string(name);
    if (value === undefined || value.trim() === '') throw new UsageError(`missing ${hint}`);
    return value;
  }

  bool(name: string): boolean {
    return this.values.get(name) === true;
  }

  /** `true`/`false` (also yes/no, 1/0) given as a value, e.g. `--active false`. */
  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const v = value.toLowerCase();
    if (['true', 'yes', '1'].includes(v)) return true;
    if (['false', 'no', '0'].includes(v)) return false;
    throw new UsageError(`--${name} must be true or false, not "${value}"`);
  }

  integer(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
    return n;
  }

  /** A comma-separated list: `--features a,b` → ["a", "b"]; `--features ""` → []. */
  list(name: string): string[] | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  }
}

/** Exactly `count` positionals after the command, named for the usage message. */
export function positionals(args: readonly string[], names: readonly string[]): string[] {
  if (args.length < names.length) throw new UsageError(`missing <${names[args.length]}>`);
  if (args.length > names.length) throw new UsageError(`unexpected argument "${args[names.length]}"`);
  return [...args];
}
