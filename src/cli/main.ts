#!/usr/bin/env bun
import pkg from '../../package.json' with { type: 'json' };
import { Flags, parseArgs, type ParsedArgs } from './args.ts';
import { COMMANDS } from './commands.ts';
import { configPath, loadConfig } from './config.ts';
import { makeContext, type Command } from './context.ts';
import { CliError, EXIT, toCliError, UsageError, type ExitCode } from './errors.ts';
import { commandHelp, groupHelp, groupNames, isGroup, topHelp } from './help.ts';
import { closest } from './suggest.ts';
import { Api, DEFAULT_API_URL, normalizeApiUrl } from './http.ts';

/** The command whose words start the positionals, longest match first. */
function findCommand(positionals: readonly string[]): { command: Command; args: string[] } | undefined {
  const byLength = [...COMMANDS].sort((a, b) => b.path.split(' ').length - a.path.split(' ').length);
  for (const command of byLength) {
    const words = command.path.split(' ');
    if (words.every((word, i) => positionals[i] === word)) return { command, args: positionals.slice(words.length) };
  }
  return undefined;
}

/** The longest group the positionals name ("seller products"), if any. */
function findGroup(positionals: readonly string[]): string | undefined {
  for (let n = positionals.length; n > 0; n--) if (isGroup(positionals.slice(0, n))) return positionals.slice(0, n).join(' ');
  return undefined;
}

/** ` (did you mean "licensing status"?)` for a typo, within the group when one was named; else nothing. */
function didYouMean(positionals: readonly string[], group: string | undefined): string {
  const names = [...new Set([...COMMANDS.map((c) => c.path), ...groupNames()])].filter((name) => !group || name.startsWith(`${group} `));
  const near = closest(positionals, names);
  return near.length ? ` (did you mean ${near.map((n) => `"licensing ${n}"`).join(' or ')}?)` : '';
}

function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** The command being run, for the usage line under a usage error. */
let current: Command | undefined;

/** A word of the command line as error lines show it: a key or token by its kind only (error lines end up in logs). */
const shown = (word: string) => (/^(sk|pk|idt)_/.test(word) ? `${word.slice(0, word.indexOf('_') + 1)}…` : word);

async function dispatch(parsed: ParsedArgs): Promise<ExitCode> {
  const { positionals, flags } = parsed;
  if (flags.has('version')) {
    out(flags.has('json') ? JSON.stringify({ version: pkg.version }) : pkg.version);
    return EXIT.ok;
  }
  const found = findCommand(positionals);
  if (!found) {
    const group = findGroup(positionals);
    const help = group ? groupHelp(group, COMMANDS) : topHelp(COMMANDS, pkg.version);
    if (flags.has('help') && (group ? positionals.length === group.split(' ').length : positionals.length === 0)) {
      out(help);
      return EXIT.ok;
    }
    if (positionals.length === 0 || (group && positionals.length === group.split(' ').length)) {
      process.stderr.write(help);
      return EXIT.usage;
    }
    throw new UsageError(`unknown command "${positionals.map(shown).join(' ')}"${didYouMean(positionals, group)}; run "licensing${group ? ` ${group}` : ''} --help"`);
  }
  const { command, args } = found;
  current = command;
  if (flags.has('help')) {
    out(commandHelp(command));
    return EXIT.ok;
  }
  const commandFlags = new Flags(flags, command.flags);
  const extra = args[command.maxArgs ?? 0];
  if (extra !== undefined) throw new UsageError(/^(sk|pk|idt)_/.test(extra) ? `unexpected argument (${shown(extra)}: keys are never taken from the command line)` : `unexpected argument "${extra}"`);
  const apiUrl = normalizeApiUrl(commandFlags.string('api-url') ?? (process.env.LICENSING_API_URL || DEFAULT_API_URL));
  const path = configPath(commandFlags.string('config'));
  const ctx = makeContext({ args, flags: commandFlags, json: commandFlags.bool('json'), apiUrl, api: new Api(apiUrl), configPath: path, config: loadConfig(path) });
  return (await command.run(ctx)) ?? EXIT.ok;
}

/** Runs the program: one result on stdout, one error line on stderr, never a stack trace. */
export async function main(argv: readonly string[]): Promise<ExitCode> {
  let parsed: ParsedArgs | undefined;
  try {
    parsed = parseArgs(argv);
    return await dispatch(parsed);
  } catch (thrown) {
    const apiUrl = safeApiUrl(parsed);
    const error = toCliError(thrown, apiUrl);
    report(error, parsed?.flags.has('json') === true);
    return error.exitCode;
  }
}

function safeApiUrl(parsed: ParsedArgs | undefined): string {
  const raw = parsed?.flags.get('api-url');
  try {
    return normalizeApiUrl(typeof raw === 'string' ? raw : process.env.LICENSING_API_URL || DEFAULT_API_URL);
  } catch {
    return String(raw);
  }
}

function report(error: CliError, json: boolean): void {
  const usage = current ? `usage: licensing ${current.usage}` : 'Run "licensing --help" for usage.';
  const hint = error.exitCode === EXIT.usage && !error.message.includes('--help') ? `\n${usage}` : '';
  process.stderr.write(`error: ${error.message} (${error.code})${hint}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message }, exitCode: error.exitCode }, null, 2)}\n`);
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  process.exit(code);
}
