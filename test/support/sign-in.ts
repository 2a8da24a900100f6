/**
 * Signing in as tests do it since e-mail sign-in: the code is texted when login/init names the
 * confirmed phone, and e-mailed otherwise (the mask is then a keyed decoy); a checkout's buyer
 * confirms the checkout's phone once signed in, so its saved cards are usable.
 */
import { maskPhone } from '../../src/domain/phone.ts';

type Call = (method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>;

const codeIn = (text: string | undefined) => (text ? /\b(\d{6})\b/.exec(text)?.[1] : undefined);

/** The newest code texted to this phone (sandbox SMS outbox). */
export async function textedCode(call: Call, phone: string): Promise<string> {
  const outbox = await call('GET', `/sandbox/outbox?to=${encodeURIComponent(phone)}`);
  const code = codeIn(outbox.body?.data?.[0]?.body);
  if (!code) throw new Error(`no code texted to ${phone}`);
  return code;
}

/** The newest code mailed to this address (sandbox mail). */
export async function mailedCode(call: Call, email: string): Promise<string> {
  const mail = await call('GET', `/sandbox/mail?to=${encodeURIComponent(email)}`);
  // The newest mail carrying a code (receipts are mailed too).
  const code = (mail.body?.data ?? []).map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** The code a login/init answer sent: texted when it names `phone`, else mailed to `email`. */
export async function loginCode(call: Call, init: { body: { phoneMasked: string } }, who: { email: string; phone?: string | null }): Promise<string> {
  return who.phone && init.body.phoneMasked === maskPhone(who.phone) ? textedCode(call, who.phone) : mailedCode(call, who.email);
}

/**
 * The device each identity token was issued to, as a real client keeps it: the test's HTTP helpers
 * note every successful login/verify (`noteLogin`) and send a token with its device (`bearerHeaders`).
 */
const deviceOfToken = new Map<string, string>();

/** After a request: when it was a successful login/verify, remembers which device its token belongs to. */
export function noteLogin(path: string, requestBody: unknown, replyBody: unknown): void {
  const token = (replyBody as { identityToken?: unknown } | null)?.identityToken;
  const device = (requestBody as { deviceFingerprint?: unknown } | null)?.deviceFingerprint;
  if (path.endsWith('/auth/login/verify') && typeof token === 'string' && typeof device === 'string') deviceOfToken.set(token, device);
}

/** `Authorization: Bearer <token>` and, for a token a login gave, its device's `X-Device-Fingerprint`. */
export function bearerHeaders(token: string): Record<string, string> {
  const device = deviceOfToken.get(token);
  return device === undefined ? { authorization: `Bearer ${token}` } : { authorization: `Bearer ${token}`, 'x-device-fingerprint': device };
}

/** An identity token's headers: the token, and the device it was issued to (always both). */
export const customerAuth = (token: string, device: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-device-fingerprint': device });

/** Makes `phone` the signed-in customer's confirmed phone (a code texted to it); nothing when it already is. */
export async function confirmPhone(call: Call, token: string, phone: string, device: string): Promise<void> {
  const headers = customerAuth(token, device);
  const asked = await call('POST', '/customer/phone', { headers, body: { phone } });
  if (asked.status === 409) return;
  if (asked.status !== 200) throw new Error(`phone confirmation failed: ${JSON.stringify(asked.body)}`);
  const done = await call('POST', '/customer/phone/verify', { headers, body: { phone, otpId: asked.body.otpId, otp: await textedCode(call, phone) } });
  if (done.status !== 200) throw new Error(`phone confirmation failed: ${JSON.stringify(done.body)}`);
}
