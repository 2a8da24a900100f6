import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { bearerHeaders, noteLogin } from '../support/sign-in.ts';

export const ROOT = join(import.meta.dir, '..', '..');
export const BUYER_PHONE = '+15551234567';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON document --json promises. */
  json<T = any>(): T;
}

export interface CliOptions {
  /** Lines piped on stdin (default: nothing, stdin is /dev/null). */
  stdin?: string;
  env?: Record<string, string>;
}

/** The environment without anything the CLI reads, so the test's own settings decide. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('LICENSING_')) env[name] = value;
  return { ...env, NO_COLOR: '1', ...extra };
}

/** `bun run src/cli/main.ts <args>` as a subprocess, non-interactive (no terminal on either side). */
export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const proc = Bun.spawn(['bun', 'run', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: cleanEnv(options.env),
    stdin: options.stdin === undefined ? 'ignore' : new Blob([options.stdin]),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not one JSON document (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

/** The real service on a temporary SQLite file, and a CLI bound to it with its own config file. */
export async function cliWorld(prefix = 'licensing-cli-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server: RunningServer = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, LOG_LEVEL: 'warn' });
  const apiUrl = `${server.url}/v1`;
  let configs = 0;
  const world = {
    dir,
    server,
    apiUrl,
    /** A fresh config file path (nothing written yet): one per person in the story. */
    newConfig: () => join(dir, `config-${++configs}`, 'config.json'),
    /** The CLI against this server with that config file. */
    cli: (config: string, args: readonly string[], options: CliOptions & { apiUrl?: string } = {}) =>
      runCli([...args, '--api-url', options.apiUrl ?? apiUrl, '--config', config], options),
    api: (method: string, path: string, init: { key?: string; bearer?: string; body?: unknown; form?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = {};
      if (init.key) headers['x-api-key'] = init.key;
      if (init.bearer) Object.assign(headers, bearerHeaders(init.bearer));
      let body: string | undefined;
      if (init.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(init.form).toString();
      } else if (init.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.body);
      }
      return fetch(`${apiUrl}${path}`, { method, headers, body, redirect: 'manual' });
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

export type CliWorld = Awaited<ReturnType<typeof cliWorld>>;

/**
 * A seller signed up through the CLI (which writes the config file), with a product "CLI Pro" at
 * $19.99 created through the API unless `productBy` says the CLI: each CLI run is a process start,
 * and `seller products create` has tests of its own (seller.test.ts).
 */
export async function sellerWithProduct(world: CliWorld, config = world.newConfig(), productBy: 'api' | 'cli' = 'api') {
  const email = `seller-${crypto.randomUUID()}@example.com`;
  const signup = (await world.cli(config, ['seller', 'signup', '--email', email, '--name', 'CLI Seller', '--json'])).json();
  const product: { id: string } =
    productBy === 'cli'
      ? (await world.cli(config, ['seller', 'products', 'create', '--name', 'CLI Pro', '--price', '19.99', '--currency', 'usd', '--features', 'pro,export', '--json'])).json()
      : await createdProduct(world, signup.apiKey);
  return { config, developerId: signup.id as string, apiKey: signup.apiKey as string, publishableKey: signup.publishableKey as string, productId: product.id };
}

async function createdProduct(world: CliWorld, apiKey: string): Promise<{ id: string }> {
  const created = await world.api('POST', '/developers/products', { key: apiKey, body: { name: 'CLI Pro', price: 1999, currency: 'usd', features: ['pro', 'export'] } });
  if (created.status !== 201) throw new Error(`product: ${created.status} ${await created.text()}`);
  return (await created.json()) as { id: string };
}

/** A license granted through the API (`seller licenses grant` has tests of its own). */
export async function grantLicense(world: CliWorld, apiKey: string, productId: string, email: string) {
  const granted = await world.api('POST', '/developers/licenses', { key: apiKey, body: { productId, email } });
  if (granted.status !== 201) throw new Error(`grant: ${granted.status} ${await granted.text()}`);
  return (await granted.json()) as { licenseKey: string; license: { id: string } };
}

/**
 * Connects the seller in the sandbox: what the authorize page's Authorize link does, without a
 * browser, for the given authorize URL (default: a fresh one from POST /connect/start).
 */
export async function connectSandbox(world: CliWorld, apiKey: string, authorizeUrl?: string): Promise<void> {
  const url = authorizeUrl ?? ((await (await world.api('POST', '/connect/start', { key: apiKey })).json()) as { url: string }).url;
  const authorize = new URL(url);
  const callback = new URL(authorize.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', 'sbx_code_clitest0123456789');
  callback.searchParams.set('state', authorize.searchParams.get('state')!);
  const answer = await fetch(`${world.server.url}${callback.pathname}${callback.search}`);
  if (!answer.ok) throw new Error(`sandbox connect failed: ${answer.status} ${await answer.text()}`);
}

/** A Luhn-valid Visa number of its own (the sandbox pays with any), for buyers who must not share a card. */
export function uniqueCardNumber(): string {
  const body = `4111${Array.from({ length: 11 }, () => Math.floor(Math.random() * 10)).join('')}`;
  const sum = [...body].reverse().reduce((acc, ch, i) => {
    const d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    return acc + (d > 9 ? d - 9 : d);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * Each buyer e-mail gets a phone of its own: the service texts one phone at most 5 codes per 15
 * minutes (docs/codes-and-sign-in.md), and these tests log many buyers in within seconds.
 */
const phones = new Map<string, string>();
let lastBuyerPhone = BUYER_PHONE;
let lastBuyerEmail = '';
/** Buyers whose checkout phone is confirmed already. */
const confirmed = new Set<string>();
const phoneOf = (email: string) => {
  if (!phones.has(email)) phones.set(email, `+1555${String(1_000_000 + phones.size).slice(-7)}`);
  return phones.get(email)!;
};

/** A buyer pays a sandbox checkout for the product (saving phone and card), as the hosted page would. */
export async function buyInSandbox(world: CliWorld, publishableKey: string, productId: string, email: string, cardNumber = '4242424242424242'): Promise<void> {
  const init = await world.api('POST', '/checkout/init', { key: publishableKey, body: { productId, email } });
  const { sessionId } = (await init.json()) as { sessionId: string };
  lastBuyerPhone = phoneOf(email);
  lastBuyerEmail = email;
  const pay = await world.api('POST', `/sandbox/checkout/${sessionId}/pay`, { form: { email, phone: lastBuyerPhone, cardNumber } });
  if (pay.status !== 303) throw new Error(`sandbox pay failed: ${pay.status} ${await pay.text()}`);
  if (!confirmed.has(email)) {
    await confirmCheckoutPhone(world, email, lastBuyerPhone);
    confirmed.add(email);
  }
}

/**
 * The newest code sent to the buyer who paid last (or to `phone`/`email`): texted to the phone or
 * mailed to the address, whichever came last (the first sign-in after a checkout is by e-mail).
 */
export async function latestCode(world: CliWorld, phone = lastBuyerPhone, email = lastBuyerEmail): Promise<string> {
  const outbox = (await (await world.api('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`)).json()) as { data: { body: string; sentAt: number }[] };
  const mail = email ? ((await (await world.api('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`)).json()) as { data: { text: string; sentAt: number }[] }) : { data: [] };
  // The newest mail carrying a code (receipts are mailed too).
  const [text, mailed] = [outbox.data[0], mail.data.find((m) => /code is \d{6}/.test(m.text))];
  const newest = !mailed || (text && text.sentAt >= mailed.sentAt) ? text?.body : mailed.text;
  const code = /\b(\d{6})\b/.exec(newest ?? '')?.[1];
  if (!code) throw new Error(`no code texted or mailed: ${JSON.stringify({ outbox, mail })}`);
  return code;
}

/**
 * The buyer signs in once through the API (an e-mailed code) and confirms the checkout's phone, as
 * the account page does: from then on their sign-in and purchase codes are texted to it, and the
 * card that checkout saved is offered in the terminal.
 */
async function confirmCheckoutPhone(world: CliWorld, email: string, phone: string): Promise<void> {
  const json = async (response: Response) => (await response.json()) as any;
  const init = await json(await world.api('POST', '/auth/login/init', { body: { email } }));
  const verified = await json(await world.api('POST', '/auth/login/verify', { body: { email, otpId: init.otpId, otp: await latestCode(world, phone, email), deviceFingerprint: 'cli-test-setup' } }));
  const bearer = verified.identityToken as string;
  noteLogin('/auth/login/verify', { deviceFingerprint: 'cli-test-setup' }, verified);
  const asked = await world.api('POST', '/customer/phone', { bearer, body: { phone } });
  if (asked.status === 409) return;
  const { otpId } = await json(asked);
  const done = await world.api('POST', '/customer/phone/verify', { bearer, body: { phone, otpId, otp: await latestCode(world, phone, '') } });
  if (done.status !== 200) throw new Error(`phone confirmation failed: ${done.status} ${await done.text()}`);
}

/** The CLI left running (stdin a pipe), to act on what it printed before it ends. */
export function startCli(args: readonly string[], options: { env?: Record<string, string> } = {}) {
  const proc = Bun.spawn(['bun', 'run', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: cleanEnv(options.env),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  const drain = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const drained = Promise.all([drain(proc.stdout, (t) => (stdout += t)), drain(proc.stderr, (t) => (stderr += t))]);
  return {
    /** Resolves with the first match of `pattern` in stderr; fails if the process ends first. */
    async waitForStderr(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stderr);
        if (match) return match;
        if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`never printed ${pattern} (exit ${proc.exitCode}):\n${stderr}`);
        await Bun.sleep(50);
      }
    },
    type(text: string) {
      proc.stdin.write(text);
      proc.stdin.flush();
    },
    endInput() {
      proc.stdin.end();
    },
    async finished(): Promise<CliRun> {
      const code = await proc.exited;
      await drained;
      return { code, stdout, stderr, json: () => JSON.parse(stdout) };
    },
  };
}
