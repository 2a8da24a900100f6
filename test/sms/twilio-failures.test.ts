import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TwilioSmsSender } from '../../src/adapters/twilio/twilio-sms-sender.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { type FakeTwilio, startFakeTwilio } from '../support/fake-twilio.ts';

const FROM = '+15005550006';
const TO = '+15551234567';
const BODY = 'Your Acme Licensing code is 482913. It expires in 5 minutes.';

let fake: FakeTwilio;
beforeAll(() => {
  fake = startFakeTwilio();
});
afterAll(() => fake.stop());

const senderFor = (overrides: Partial<ConstructorParameters<typeof TwilioSmsSender>[0]> = {}) =>
  new TwilioSmsSender({ accountSid: fake.accountSid, authToken: fake.authToken, from: FROM, apiBase: fake.url, ...overrides });

async function failureOf(send: Promise<void>): Promise<DomainError> {
  const error = await send.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

/** Nothing the caller (and so the HTTP client, and the logs) sees may name the phone or a credential. */
function expectNothingSecretIn(error: DomainError, ...secrets: string[]) {
  const shown = `${error.message} ${JSON.stringify(error.details ?? {})}`;
  for (const secret of [TO, TO.slice(1), fake.authToken, fake.accountSid, BODY, '482913', ...secrets]) {
    expect(shown).not.toContain(secret);
  }
}

describe('a failed send is sms_failed, naming neither the phone nor a secret', () => {
  test('a wrong auth token (Twilio 401)', async () => {
    const error = await failureOf(senderFor({ authToken: 'wrong_token_value' }).send(TO, BODY));

    expect(error.code).toBe('sms_failed');
    expect(error.message).toBe('The text message could not be sent.');
    expect(error.details).toEqual({ provider: 'twilio', status: 401, code: 20003 });
    expectNothingSecretIn(error, 'wrong_token_value');
  });

  test('an account sid Twilio does not know (Twilio 401)', async () => {
    const otherSid = `AC${'9'.repeat(32)}`;

    const error = await failureOf(senderFor({ accountSid: otherSid }).send(TO, BODY));

    expect(error.code).toBe('sms_failed');
    expect(error.details).toMatchObject({ status: 401 });
    expectNothingSecretIn(error, otherSid);
  });

  test('Twilio failing on its side (500)', async () => {
    const before = fake.messages.length;
    fake.failNext(500);

    const error = await failureOf(senderFor().send(TO, BODY));

    expect(error.code).toBe('sms_failed');
    expect(error.details).toMatchObject({ provider: 'twilio', status: 500 });
    expect(fake.messages.length).toBe(before);
    expectNothingSecretIn(error);
  });

  test('a recipient Twilio refuses (400, whose own message quotes the number)', async () => {
    const badNumber = '+0123';

    const error = await failureOf(senderFor().send(badNumber, BODY));

    expect(error.code).toBe('sms_failed');
    expect(error.details).toEqual({ provider: 'twilio', status: 400, code: 21211 });
    expectNothingSecretIn(error, badNumber, '0123');
  });

  test('Twilio unreachable', async () => {
    const gone = startFakeTwilio();
    const url = gone.url;
    await gone.stop();

    const error = await failureOf(senderFor({ apiBase: url }).send(TO, BODY));

    expect(error.code).toBe('sms_failed');
    expect(error.details).toEqual({ provider: 'twilio' });
    expectNothingSecretIn(error);
  });

  test('after a failure the next send goes through', async () => {
    fake.failNext(503);
    await failureOf(senderFor().send(TO, BODY));
    const before = fake.messages.length;

    await senderFor().send(TO, BODY);

    expect(fake.messages.slice(before).map((m) => m.body)).toEqual([BODY]);
  });
});
