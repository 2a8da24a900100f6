import { bearerHeaders, noteLogin } from '../support/sign-in.ts';

/** Real HTTP against the server process; a request the process died under rejects (it was never acknowledged). */

export interface Reply {
  status: number;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent form-urlencoded, as the sandbox payment page posts it. */
  form?: Record<string, string>;
  key?: string;
  bearer?: string;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Reply>;

export function client(base: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.key) headers['x-api-key'] = options.key;
    if (options.bearer) Object.assign(headers, bearerHeaders(options.bearer));
    let body: string | undefined;
    if (options.form) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(options.form).toString()];
    else if (options.body !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(options.body)];
    const response = await fetch(`${base}/v1${path}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    noteLogin(path, options.body, parsed);
    return { status: response.status, body: parsed };
  };
}

/** The reply, or a thrown error that says which call went wrong (for set-up steps that must work). */
export async function expectStatus(reply: Promise<Reply>, status: number, what: string): Promise<any> {
  const r = await reply;
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** The newest six-digit code texted to this phone (the sandbox SMS outbox, newest first). */
export async function latestCode(call: Call, phone: string): Promise<string> {
  const outbox = await expectStatus(call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`), 200, 'outbox');
  const code = /\b(\d{6})\b/.exec(outbox.data?.[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code texted to ${phone}`);
  return code;
}

/** The newest six-digit code mailed to this address (sandbox mail, newest first). */
export async function mailedCode(call: Call, email: string): Promise<string> {
  const mail = await expectStatus(call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`), 200, 'mail');
  // The newest mail carrying a code (receipts are mailed too).
  const code = (mail.data ?? []).map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

export const randomHex = (bytes = 16) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
/** A US test number nobody else in the run uses. */
export const randomPhone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
