import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import type { Context } from './context.ts';
import { CliError, UsageError } from './errors.ts';

/** One question on the terminal (prompt on stderr, so --json output stays clean); Ctrl-C cancels. */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const cancel = new AbortController();
  rl.on('SIGINT', () => cancel.abort());
  try {
    return (await rl.question(question, { signal: cancel.signal })).trim();
  } catch (error) {
    if (!cancel.signal.aborted) throw error;
    process.stderr.write('\n');
    throw new CliError('cancelled', 'cancelled');
  } finally {
    rl.close();
  }
}

/**
 * A secret typed at the terminal, not echoed (raw mode: Enter ends it, Backspace deletes, Ctrl-C
 * cancels, Ctrl-D on an empty line ends it empty). The prompt goes to stderr.
 */
export async function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise<string>((resolve, reject) => {
    let value = '';
    const finish = (error?: CliError) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new CliError('cancelled', 'cancelled'));
        if (ch === '\u0004') {
          if (value === '') return finish();
        } else if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

let stdinLines: Promise<string[]> | undefined;

/** Lines piped into a non-interactive run, read once to the end; empty when nothing was piped. */
export async function pipedLine(): Promise<string | undefined> {
  stdinLines ??= readAllStdin().then((text) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ''));
  return (await stdinLines).shift();
}

async function readAllStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  try {
    return await new Response(Bun.stdin.stream()).text();
  } catch {
    return '';
  }
}

/**
 * A value from its flag, else a prompt when interactive, else a line piped on stdin (when `piped`),
 * else a usage error naming the flag.
 */
export async function valueOf(ctx: Context, flag: string, question: string, options: { piped?: boolean } = {}): Promise<string> {
  const given = ctx.flags.string(flag);
  if (given !== undefined && given.trim() !== '') return given.trim();
  if (ctx.interactive) {
    for (let tries = 0; tries < 3; tries++) {
      const answer = await ask(question);
      if (answer) return answer;
    }
    throw new UsageError(`no ${flag} given`);
  }
  if (options.piped) {
    const line = await pipedLine();
    if (line) return line;
  }
  throw new UsageError(`missing --${flag} <value> (not a terminal, so nothing to prompt on)`);
}

/** Opens a URL in the default browser, best effort: the URL is always printed as well. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {}
}

/**
 * Consent to something that cannot be undone: `--yes`, else a y/N question on a terminal (anything
 * but y/yes cancels, exit 1). Without a terminal and without --yes it refuses (exit 2): a script
 * must say --yes, so a missing terminal never turns into a silent "yes".
 */
export async function confirm(ctx: Context, question: string): Promise<void> {
  if (ctx.flags.bool('yes')) return;
  if (!ctx.interactive) throw new UsageError('this cannot be undone: pass --yes to confirm (not a terminal, so nothing to ask on)');
  const answer = (await ask(`${question} [y/N] `)).toLowerCase();
  if (answer !== 'y' && answer !== 'yes') throw new CliError('cancelled, nothing changed', 'cancelled');
}
