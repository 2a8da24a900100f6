import { describe, expect, test } from 'bun:test';
import { OUTBOX_LIMIT } from '../../src/adapters/http/routes/sandbox/outbox.ts';
import { outboxApp } from './outbox-app.ts';

const PHONE = '+15551234567';

describe('GET /v1/sandbox/outbox', () => {
  test('lists the messages to a phone as {to, body, sentAt}, newest first', async () => {
    const { sms, clock, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 111111. It expires in 5 minutes.');
    clock.advance(60_000);
    await sms.send(PHONE, 'Your Acme code is 222222. It expires in 5 minutes.');

    const response = await get(`/sandbox/outbox?to=${encodeURIComponent(PHONE)}`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: [
        { to: PHONE, body: 'Your Acme code is 222222. It expires in 5 minutes.', sentAt: clock.now() },
        { to: PHONE, body: 'Your Acme code is 111111. It expires in 5 minutes.', sentAt: clock.now() - 60_000 },
      ],
    });
  });

  test('shows nothing sent to another phone', async () => {
    const { sms, get } = outboxApp();
    await sms.send('+15559876543', 'Your Acme code is 333333.');

    const response = await get(`/sandbox/outbox?to=${encodeURIComponent(PHONE)}`);

    expect(await response.json()).toEqual({ data: [] });
  });

  test('the same number written with spaces, dashes or brackets finds the same messages', async () => {
    const { sms, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 444444.');

    for (const written of ['+1 555-123-4567', ' +1 (555) 123 4567 ', '+1.555.123.4567']) {
      const body = await (await get(`/sandbox/outbox?to=${encodeURIComponent(written)}`)).json();
      expect(body.data.map((m: { body: string }) => m.body)).toEqual(['Your Acme code is 444444.']);
    }
  });

  test('a + left unencoded in the URL (it arrives as a space) still finds the number', async () => {
    const { sms, get } = outboxApp();
    await sms.send(PHONE, 'Your Acme code is 555555.');

    const body = await (await get('/sandbox/outbox?to=+15551234567')).json();

    expect(body.data.map((m: { to: string }) => m.to)).toEqual([PHONE]);
  });

  test(`returns at most ${OUTBOX_LIMIT} messages, the newest`, async () => {
    const { sms, clock, get } = outboxApp();
    for (let i = 1; i <= OUTBOX_LIMIT + 5; i++) {
      clock.advance(1_000);
      await sms.send(PHONE, `message ${i}`);
    }

    const body = await (await get(`/sandbox/outbox?to=${encodeURIComponent(PHONE)}`)).json();

    expect(body.data).toHaveLength(OUTBOX_LIMIT);
    expect(body.data[0].body).toBe(`message ${OUTBOX_LIMIT + 5}`);
    expect(body.data.at(-1).body).toBe('message 6');
  });

  test('without to it is 400 invalid_request', async () => {
    const { get } = outboxApp();

    const response = await get('/sandbox/outbox');

    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_request');
  });

  test('an empty or blank to is 400 invalid_request', async () => {
    const { get } = outboxApp();

    for (const to of ['', '%20%20']) {
      const response = await get(`/sandbox/outbox?to=${to}`);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_request');
    }
  });
});
