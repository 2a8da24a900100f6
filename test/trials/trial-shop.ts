import { seller, testApi, type Reply, type TestApi } from '../support/http.ts';

/** The code in the newest mail kept for `to` (sandbox mode), read as the buyer would: over HTTP. */
export async function mailedCode(api: TestApi, to: string): Promise<string> {
  const kept = await api.call('GET', `/sandbox/mail?to=${encodeURIComponent(to)}`);
  const code = /\b(\d{6})\b/.exec(kept.body?.data?.[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/**
 * A seller whose product offers a 14-day trial on up to two machines. `start` starts a trial at
 * once with the secret key; with the publishable key it asks (202), reads the mailed code and
 * confirms it, answering what the confirmation answered (or the refusal of the request).
 */
export async function trialShop(api: TestApi = testApi()) {
  const s = await seller(api);
  const patched = await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: 14, maxMachines: 2 } });
  if (patched.status !== 200) throw new Error(JSON.stringify(patched.body));
  const body = (fields: Record<string, unknown>) => ({ productId: s.product.id, email: 'ada@example.com', machineFingerprint: 'machine-a', ...fields });
  const request = (fields: Record<string, unknown> = {}, key = s.publishableKey, headers: Record<string, string> = {}) =>
    api.call('POST', '/trials', { key, headers, body: body(fields) });
  const confirm = (trialRequestId: string, otp: string, key = s.publishableKey, headers?: Record<string, string>) =>
    api.call('POST', '/trials/confirm', { key, body: { trialRequestId, otp }, headers });
  async function start(fields: Record<string, unknown> = {}, key = s.apiKey, headers: Record<string, string> = {}): Promise<Reply> {
    const asked = await request(fields, key, headers);
    if (asked.status !== 202) return asked;
    return confirm(asked.body.trialRequestId, await mailedCode(api, String(body(fields).email).trim().toLowerCase()), key);
  }
  const validate = (licenseKey: string, machineFingerprint: string) =>
    api.call('POST', '/licenses/validate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } });
  const activate = (licenseKey: string, machineFingerprint: string) =>
    api.call('POST', '/licenses/activate', { key: s.publishableKey, body: { licenseKey, machineFingerprint } });
  return { api, s, request, confirm, start, validate, activate };
}
