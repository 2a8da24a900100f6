import { requestContext } from './request-context.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

/**
 * JSON lines on stdout. Callers pass only what is safe to keep: never a key, a token, a code or a
 * license key (requests are logged by method, route path and status, never headers or bodies). A
 * line written while a request is served carries its `requestId`.
 */
export function jsonLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    const requestId = requestContext.getStore();
    const line = requestId === undefined ? { time: new Date().toISOString(), level: lvl, msg, ...fields } : { time: new Date().toISOString(), level: lvl, msg, requestId, ...fields };
    write(`${JSON.stringify(line)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
