import type { SignUpResult } from '../domain/developer.ts';
import { ROTATION_LEAD_MS } from '../domain/key-statements.ts';
import { CliError, NotConfiguredError, UsageError } from './errors.ts';
import type { Command, Context } from './context.ts';
import type { SellerConfig } from './config.ts';
import { elapsed, fields } from './output.ts';
import { askHidden, openInBrowser, pipedLine } from './prompt.ts';

/** The seller's secret key from the config file, or exit 4 with what to run. */
export function requireSeller(ctx: Context): SellerConfig {
  const seller = ctx.config.seller;
  if (!seller?.apiKey) {
    throw new NotConfiguredError(`no seller key in ${ctx.configPath}: run "licensing seller signup" or "licensing seller login" (the sk_… key on standard input)`);
  }
  return seller;
}

/** A secret key is shown once: the one in the config file is never silently overwritten. */
function refuseToReplace(ctx: Context): void {
  const seller = ctx.config.seller;
  if (!seller?.apiKey) return;
  const who = seller.email ?? seller.developerId ?? 'another account';
  throw new CliError(`${ctx.configPath} already holds the secret key of ${who}; use another --config, or remove "seller" from that file first`, 'seller_exists');
}

const signup: Command = {
  path: 'seller signup',
  summary: 'create a seller account and keep its secret key in the config file',
  usage: 'seller signup --email <email> --name <name>',
  flags: ['email', 'name'],
  async run(ctx) {
    const email = ctx.flags.required('email', '--email <email>');
    const name = ctx.flags.required('name', '--name <name>');
    refuseToReplace(ctx);
    const account = await ctx.api.request<SignUpResult>('POST', '/developers/signup', { body: { email, name } });
    ctx.config.seller = { apiKey: account.apiKey, developerId: account.id, publishableKey: account.publishableKey, email: account.email };
    ctx.save();
    ctx.result(account, () =>
      [
        fields([
          ['Developer', account.id],
          ['Publishable key', `${account.publishableKey}  (ship it in your app)`],
          ['Secret key', `${account.apiKey}  (shown once; saved to ${ctx.configPath})`],
        ]),
        'Next: licensing seller connect',
      ].join('\n'),
    );
  },
};

/** Where the secret key may come from: never the command line (shell history, the process list). */
const SECRET_KEY_SOURCES = 'type it when asked on a terminal, pipe it on standard input (licensing seller login < key-file), or set LICENSING_SECRET_KEY';

/**
 * The secret key: LICENSING_SECRET_KEY, else typed at a terminal without echo, else the first line
 * piped on standard input. Never printed, also when it is refused.
 */
async function secretKeyInput(): Promise<string> {
  const checked = (key: string, from: string) => {
    if (!key.startsWith('sk_')) throw new UsageError(`the key from ${from} is not a secret key (sk_…)`);
    return key;
  };
  const fromEnv = process.env.LICENSING_SECRET_KEY?.trim();
  if (fromEnv) return checked(fromEnv, 'LICENSING_SECRET_KEY');
  if (process.stdin.isTTY) {
    for (let tries = 0; tries < 3; tries++) {
      const typed = await askHidden('Secret key (sk_…, not shown): ');
      if (typed) return checked(typed, 'the prompt');
    }
    throw new UsageError('no secret key given');
  }
  const piped = await pipedLine();
  if (piped) return checked(piped, 'standard input');
  throw new UsageError(`no secret key: ${SECRET_KEY_SOURCES}`);
}

const login: Command = {
  path: 'seller login',
  summary: 'use an existing secret key, read from standard input or LICENSING_SECRET_KEY (checked against the API)',
  usage: 'seller login [--developer <dev_…>] [--publishable-key <pk_…>]  (the sk_… key on stdin, at the prompt, or in LICENSING_SECRET_KEY)',
  details: `The secret key is never taken from the command line, where shell history and the process list
keep it. On a terminal it is asked for and not shown; otherwise the first line of standard input is
read (licensing seller login < key-file, or printf '%s\\n' "$KEY" | licensing seller login);
LICENSING_SECRET_KEY, when set, comes first. --api-key is refused.`,
  // --api-key is known only to be refused with its reason (never echoing its value).
  flags: ['api-key', 'developer', 'publishable-key'],
  async run(ctx) {
    if (ctx.flags.has('api-key')) {
      throw new UsageError(`--api-key is not accepted: a key on the command line is kept by shell history and shown to every process on this machine (consider revoking that one). Instead, ${SECRET_KEY_SOURCES}`);
    }
    const apiKey = await secretKeyInput();
    if (ctx.config.seller?.apiKey !== apiKey) refuseToReplace(ctx);
    const status = await ctx.api.request<{ connected: boolean }>('GET', '/connect/status', { apiKey });
    ctx.config.seller = {
      apiKey,
      developerId: ctx.flags.string('developer'),
      publishableKey: ctx.flags.string('publishable-key'),
    };
    ctx.save();
    ctx.result({ loggedIn: true, connected: status.connected }, `Secret key saved to ${ctx.configPath}.`);
  },
};

interface ConnectStatus {
  connected: boolean;
  accountId?: string;
}

const POLL_MS = 2000;
const CONNECT_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Polls every 2 seconds for at most 10 minutes, saying so: a live "Waiting… m:ss" line on a
 * terminal, one "Waiting…" line otherwise (Ctrl-C stops; the URL stays valid for 10 minutes).
 */
async function waitForConnection(ctx: Context, apiKey: string): Promise<ConnectStatus> {
  const started = Date.now();
  const live = process.stderr.isTTY === true;
  const waiting = () => `Waiting for the authorization in the browser… ${elapsed(Date.now() - started)} (Ctrl-C to stop)`;
  if (live) process.stderr.write(`\r${waiting()} `);
  else ctx.note('Waiting for the authorization in the browser… (checking every 2 seconds, at most 10 minutes)');
  try {
    while (Date.now() - started < CONNECT_TIMEOUT_MS) {
      await Bun.sleep(POLL_MS);
      if (live) process.stderr.write(`\r${waiting()} `);
      const now = await ctx.api.request<ConnectStatus>('GET', '/connect/status', { apiKey });
      if (now.connected) return now;
    }
  } finally {
    if (live) process.stderr.write('\n');
  }
  throw new CliError('gave up waiting after 10 minutes; run "licensing seller connect" again', 'connect_timeout');
}

const connect: Command = {
  path: 'seller connect',
  summary: 'connect a payment account: prints (and opens) the authorize URL, then waits',
  usage: 'seller connect [--no-wait] [--no-open]',
  details: `Prints the authorize URL (valid 10 minutes) and opens it on a terminal unless --no-open, then checks
every 2 seconds until the account is connected (at most 10 minutes), showing "Waiting for the
authorization in the browser… m:ss" meanwhile. --no-wait prints the URL and ends.`,
  flags: ['no-wait', 'no-open'],
  async run(ctx) {
    const { apiKey } = requireSeller(ctx);
    const before = await ctx.api.request<ConnectStatus>('GET', '/connect/status', { apiKey });
    if (before.connected) {
      ctx.result(before, `Already connected${before.accountId ? ` (${before.accountId})` : ''}.`);
      return;
    }
    const { url } = await ctx.api.request<{ url: string }>('POST', '/connect/start', { apiKey });
    if (ctx.flags.bool('no-wait')) {
      ctx.result({ url, connected: false }, `Open this URL to connect your payment account (valid 10 minutes):\n${url}`);
      return;
    }
    ctx.note(`Open this URL to connect your payment account (valid 10 minutes):\n${url}`);
    if (ctx.interactive && !ctx.flags.bool('no-open')) openInBrowser(url);
    const now = await waitForConnection(ctx, apiKey);
    ctx.result({ url, ...now }, `Connected${now.accountId ? ` (${now.accountId})` : ''}.`);
  },
};

const rotate: Command = {
  path: 'seller keys rotate',
  summary: 'make the next license signing key (published now, signing in 7 days; older keys keep verifying)',
  usage: 'seller keys rotate [--start now|<days>d|<ISO time>] [--compromised]',
  flags: ['start', 'compromised'],
  async run(ctx) {
    const { apiKey } = requireSeller(ctx);
    const compromised = ctx.flags.bool('compromised');
    const start = ctx.flags.string('start');
    if (compromised && start !== undefined) throw new UsageError('--compromised starts the new key now: leave --start out');
    const body = compromised ? { compromised: true } : { notBefore: startTime(start ?? `${ROTATION_LEAD_MS / 86_400_000}d`) };
    const key = await ctx.api.request<{ kid: string; notBefore: number; status: string; compromised: string[] }>('POST', '/developers/signing-keys/rotate', { apiKey, body });
    const when = key.status === 'current' ? 'signs from now on' : `signs from ${new Date(key.notBefore).toISOString()}`;
    const retired = key.compromised.length > 0 ? ` Retired as compromised: ${key.compromised.join(', ')}.` : '';
    ctx.result(key, `New signing key ${key.kid}: published now, ${when}.${retired} Apps already shipped follow it; no new build needed.`);
  },
};

/** `now`, a number of days (`7d`), or an ISO 8601 time. */
function startTime(value: string): number {
  if (value === 'now') return 0;
  const days = /^(\d{1,3})d$/.exec(value);
  if (days) return Date.now() + Number(days[1]) * 86_400_000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new UsageError(`--start must be now, a number of days like 7d, or an ISO time, not "${value}"`);
  return at;
}

const jwks: Command = {
  path: 'seller jwks',
  summary: 'print the public signing keys (JWK Set) to embed in your app',
  usage: 'seller jwks [--developer <dev_…>]',
  flags: ['developer'],
  async run(ctx) {
    const developerId = ctx.flags.string('developer') ?? ctx.config.seller?.developerId;
    if (!developerId) throw new NotConfiguredError('no developer id: pass --developer <dev_…> or run "licensing seller signup"');
    const set = await ctx.api.request<unknown>('GET', `/developers/${encodeURIComponent(developerId)}/jwks.json`);
    ctx.result(set, JSON.stringify(set, null, 2));
  },
};

export const sellerAuthCommands: Command[] = [signup, login, connect, rotate, jwks];
