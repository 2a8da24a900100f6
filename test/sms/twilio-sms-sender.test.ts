import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TwilioSmsSender } from '../../src/adapters/twilio/twilio-sms-sender.ts';
import { type FakeTwilio, startFakeTwilio } from '../support/fake-twilio.ts';

const FROM = '+15005550006';
const TO = '+15551234567';
const CODE_MESSAGE = 'Your Acme Licensing code is 482913. It expires in 5 minutes.';

let fake: FakeTwilio;
beforeAll(() => {
  fake = startFakeTwilio();
});
afterAll(() => fake.stop());

const senderFor = (f: FakeTwilio, overrides: Partial<ConstructorParameters<typeof TwilioSmsSender>[0]> = {}) =>
  new TwilioSmsSender({ accountSid: f.accountSid, authToken: f.authToken, from: FROM, apiBase: f.url, ...overrides });

describe('TwilioSmsSender through the official SDK', () => {
  test('the message reaches Twilio with the recipient, the configured sender and the body intact', async () => {
    const sender = senderFor(fake);
    const before = fake.messages.length;

    await sender.send(TO, CODE_MESSAGE);

    expect(fake.messages.slice(before)).toEqual([{ to: TO, from: FROM, body: CODE_MESSAGE, authSid: fake.accountSid }]);
  });

  test('the body holds the code and nothing secret besides: no auth token, no account sid', async () => {
    const before = fake.messages.length;

    await senderFor(fake).send(TO, CODE_MESSAGE);

    const [sent] = fake.messages.slice(before);
    expect(sent!.body).toContain('482913');
    expect(sent!.body).not.toContain(fake.authToken);
    expect(sent!.body).not.toContain(fake.accountSid);
  });

  test('TWILIO_API_BASE sends every request, credentials included, to the local address only', async () => {
    const before = fake.requests.length;

    await senderFor(fake).send(TO, CODE_MESSAGE);

    const requests = fake.requests.slice(before);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.host).toBe(new URL(fake.url).host);
    expect(request!.host.startsWith('127.0.0.1:')).toBe(true);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
    const credentials = Buffer.from(request!.authorization.replace(/^Basic /, ''), 'base64').toString();
    expect(credentials).toBe(`${fake.accountSid}:${fake.authToken}`);
  });

  test('a trailing slash on TWILIO_API_BASE is accepted', async () => {
    const before = fake.messages.length;

    await senderFor(fake, { apiBase: `${fake.url}/` }).send(TO, CODE_MESSAGE);

    expect(fake.messages.slice(before).map((m) => m.to)).toEqual([TO]);
  });

  test('the sender may be given with spaces around it; Twilio gets it trimmed', async () => {
    const before = fake.messages.length;

    await senderFor(fake, { from: `  ${FROM} ` }).send(TO, CODE_MESSAGE);

    expect(fake.messages.slice(before).map((m) => m.from)).toEqual([FROM]);
  });
});

describe('TwilioSmsSender configuration', () => {
  const valid = { accountSid: `AC${'1'.repeat(32)}`, authToken: 'token', from: FROM };

  test('an account sid that is not an AC… sid is refused at start', () => {
    expect(() => new TwilioSmsSender({ ...valid, accountSid: 'SK123' })).toThrow('TWILIO_ACCOUNT_SID');
  });

  test('a missing auth token or sender is refused at start', () => {
    expect(() => new TwilioSmsSender({ ...valid, authToken: '' })).toThrow('TWILIO_AUTH_TOKEN');
    expect(() => new TwilioSmsSender({ ...valid, from: ' ' })).toThrow('TWILIO_FROM');
  });

  test('TWILIO_API_BASE must be a bare http(s) origin', () => {
    expect(() => new TwilioSmsSender({ ...valid, apiBase: 'http://127.0.0.1:9/twilio' })).toThrow('TWILIO_API_BASE');
    expect(() => new TwilioSmsSender({ ...valid, apiBase: 'ftp://127.0.0.1:9' })).toThrow('TWILIO_API_BASE');
    expect(() => new TwilioSmsSender({ ...valid, apiBase: 'not a url' })).toThrow();
  });
});
