import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/server-process.ts';
import { BUYER, connectedSeller, expectJourneyWorked, http, payInBrowser, terminalJourney, type Journey } from './journey.ts';

/** Every occurrence of `value` as a whole number (not inside a longer run of digits). */
const asNumber = (value: string) => new RegExp(`(?<!\\d)${value}(?!\\d)`);

describe('what the server prints while the sandbox terminal flow runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'terminal-logs-'));
  let server: RunningServer;
  let journey: Journey;
  let output: string;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'licensing.db')}`, MASTER_KEY: '', LOG_LEVEL: 'debug' });
    const call = http(server.url);
    const seller = await connectedSeller(call);
    await payInBrowser(call, seller);
    const codeFor = async () => {
      const outbox = await call('GET', `/sandbox/outbox?to=${encodeURIComponent(BUYER.phone)}`);
      return /\b(\d{6})\b/.exec(outbox.body.data[0].body)![1]!;
    };
    const mailed = async () => {
      const mail = await call('GET', `/sandbox/mail?to=${encodeURIComponent(BUYER.email)}`);
      return mail.body.data.map((m: { text: string }) => /code is (\d{6})/.exec(m.text)?.[1]).find(Boolean)!;
    };
    journey = await terminalJourney(call, seller, { texted: codeFor, mailed });
    // Error paths log too: a junk token, an unknown e-mail, a wrong code for it, the outbox's HTML view.
    await call('GET', `/licenses/${journey.licenseId}`, { bearer: `idt_${'x'.repeat(43)}` });
    const unknown = await call('POST', '/auth/login/init', { body: { email: 'nobody@example.com' } });
    await call('POST', '/auth/login/verify', { body: { email: 'nobody@example.com', otpId: unknown.body.otpId, otp: journey.codes[0], deviceFingerprint: BUYER.device } });
    await call('GET', `/sandbox/outbox/view?to=${encodeURIComponent(BUYER.phone)}`);
    await server.stop('SIGTERM');
    output = server.output();
  });

  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the flow really ran: login, purchase with the saved card, logout', () => {
    expectJourneyWorked(journey);
    expect(output).toContain('/v1/purchase/confirm');
  });

  test('no OTP code appears in the output', () => {
    for (const code of journey.codes) expect(output).not.toMatch(asNumber(code));
  });

  test('no identity token appears in the output', () => {
    expect(output).not.toContain(journey.identityToken);
    expect(output).not.toContain(journey.identityToken.slice(4));
  });

  test('no license key, nor its signature, appears in the output', () => {
    expect(journey.licenseKeys.length).toBe(2);
    for (const key of journey.licenseKeys) {
      const [header, payload, signature] = key.split('.');
      expect(output).not.toContain(`${header}.${payload}`);
      expect(output).not.toContain(signature!);
    }
  });

  test('no full phone number appears in the output, in any spelling', () => {
    const digits = BUYER.phone.replace(/\D/g, '');
    expect(output).not.toContain(digits.slice(-10));
    expect(output).not.toContain('555-123-4567');
    expect(output).not.toContain('%2B1555');
  });
});
