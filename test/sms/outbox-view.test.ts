import { describe, expect, test } from 'bun:test';
import { outboxApp } from './outbox-app.ts';

const PHONE = '+15551234567';
const view = (to: string) => `/sandbox/outbox/view?to=${encodeURIComponent(to)}`;

describe('GET /v1/sandbox/outbox/view', () => {
  test('is an HTML page listing the messages newest first', async () => {
    const { sms, clock, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 111111. It expires in 5 minutes.');
    clock.advance(60_000);
    await sms.send(PHONE, 'Your Acme code is 222222. It expires in 5 minutes.');

    const response = await get(view(PHONE));
    const page = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/html');
    expect(page).toContain(PHONE);
    expect(page.indexOf('222222')).toBeGreaterThan(-1);
    expect(page.indexOf('222222')).toBeLessThan(page.indexOf('111111'));
  });

  test('sets each six-digit code apart so it is easy to read', async () => {
    const { sms, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 482913. It expires in 5 minutes.');

    const page = await (await get(view(PHONE))).text();

    expect(page).toContain('Your Acme code is <strong class="code">482913</strong>. It expires in 5 minutes.');
  });

  test('shows when each message was sent, in UTC', async () => {
    const { sms, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 123456.');

    const page = await (await get(view(PHONE))).text();

    expect(page).toContain('2026-01-01 00:00:00 UTC');
  });

  test('says so when nothing was sent to the phone', async () => {
    const { get } = outboxApp();

    const page = await (await get(view(PHONE))).text();

    expect(page).toContain('No messages to this number yet.');
  });

  test('escapes the message text and the phone as given', async () => {
    const { sms, get } = outboxApp();
    await sms.send(PHONE, '<script>alert(1)</script> code 123456 & "more"');
    const hostile = '+1555<b>1234567';

    const page = await (await get(view(PHONE))).text();
    const other = await (await get(view(hostile))).text();

    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; code <strong class="code">123456</strong> &amp; &quot;more&quot;');
    expect(other).not.toContain('<b>');
    expect(other).toContain('+1555&lt;b&gt;1234567');
  });

  test('runs no script and cannot be framed', async () => {
    const { get } = outboxApp();

    const response = await get(view(PHONE));

    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  test('without to it is a JSON 400 invalid_request', async () => {
    const { get } = outboxApp();

    const response = await get('/sandbox/outbox/view');

    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_request');
  });
});
