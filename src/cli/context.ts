import type { Flags } from './args.ts';
import { saveConfig, type CliConfig } from './config.ts';
import type { ExitCode } from './errors.ts';
import type { Api } from './http.ts';

/** What the command line and the config file give a command; the terminal adds the rest. */
export interface ContextInput {
  /** Positionals after the command's own words. */
  args: string[];
  flags: Flags;
  json: boolean;
  apiUrl: string;
  api: Api;
  configPath: string;
  config: CliConfig;
}

/** What a command sees: its arguments, the API, the config file and the terminal. */
export interface Context extends ContextInput {
  /** Both stdin and stdout are terminals: prompts, progress lines and opening a browser are allowed. */
  interactive: boolean;
  /** stdout is a terminal (live progress lines). */
  stdoutIsTTY: boolean;
  /** The one result of the command: JSON with --json, else the human text (skipped when empty). */
  result(data: unknown, human: string | (() => string)): void;
  /** A note for the person at the terminal, on stderr (never mixed into --json output). */
  note(text: string): void;
  save(): void;
}

export interface Command {
  /** The words that select it, e.g. "seller products create". */
  path: string;
  summary: string;
  /** Usage line(s) after `licensing `, and the options' help. */
  usage: string;
  /** What the usage line cannot say: flows, defaults, non-interactive use. */
  details?: string;
  flags: readonly string[];
  /** How many positionals it takes (default 0): more is a usage error before anything runs. */
  maxArgs?: number;
  run(ctx: Context): Promise<ExitCode | void>;
}

export function makeContext(input: ContextInput): Context {
  const stdoutIsTTY = process.stdout.isTTY === true;
  let printed = false;
  return {
    ...input,
    interactive: stdoutIsTTY && process.stdin.isTTY === true,
    stdoutIsTTY,
    result(data, human) {
      if (printed) throw new Error('a command prints one result');
      printed = true;
      if (input.json) {
        process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        return;
      }
      const text = typeof human === 'function' ? human() : human;
      if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    note(text) {
      process.stderr.write(`${text}\n`);
    },
    save() {
      saveConfig(input.configPath, this.config);
    },
  };
}
