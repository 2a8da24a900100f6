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
