import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { sha256Hashing } from '../../../src/adapters/crypto/sha256-hashing.ts';
import { TwilioSmsSender } from '../../../src/adapters/twilio/twilio-sms-sender.ts';
import { decoyMaskedPhone } from '../../../src/domain/phone.ts';
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, startFakeTwilio } from '../../support/fake-twilio.ts';
import { aBuyer, CODE_STORES, openCodesApp, type CodesApp } from './codes-app.ts';

/**
 * Issue 9, low: in Twilio mode an unknown e-mail answered at once until the first real send had
 * been measured, and decoy masked phones always had one shape (+*******NNNN).
 */

const twilio = startFakeTwilio();
afterAll(() => twilio.stop());

const twilioSender = () =>
  new TwilioSmsSender({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN, from: '+15550001111', apiBase: twilio.url });

describe('decoys for unknown e-mails', () => {
  let app: CodesApp;
  afterEach(async () => app?.dispose());

  test('with Twilio, the very first sign-in for an unknown e-mail waits as long as a send is expected to take', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const sender = twilioSender();
    app.deps.sms = sender;
    const before = app.clock.now();

    const reply = await app.loginInit('nobody-first@example.com');

    expect(reply.status).toBe(200);
    expect(sender.expectedSendMs).toBeGreaterThan(0);
    expect(app.clock.now() - before).toBe(sender.expectedSendMs);
    expect(twilio.messages.filter((m) => m.body.includes('sign-in'))).toHaveLength(0);
  });

  test('real sends first, then decoys: each decoy waits as long as one of the real sends took (drawn from them, not their average)', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const twilio = twilioSender();
    // The provider takes 300 ms, then 500 ms, on the service's clock.
    const took = [300, 500];
    let sent = 0;
    app.deps.sms = { expectedSendMs: twilio.expectedSendMs, send: async (to: string, body: string) => { app.clock.advance(took[sent++ % 2]!); await twilio.send(to, body); } };
    for (const phone of ['+15557770001', '+15557770002']) {
      const buyer = await app.payInBrowser(aBuyer(phone)); // and confirms the phone: sign-in codes are texted
      expect((await app.loginInit(buyer.email)).status).toBe(200);
    }

    const waits = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const before = app.clock.now();
      await app.loginInit(`nobody-${i}@example.com`);
      waits.add(app.clock.now() - before);
    }

    expect(waits).toEqual(new Set(took));
  });

  test('masked phones of unknown e-mails come in the lengths real ones do (11, 12 and 13 digits), the same on every call', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const emails = Array.from({ length: 40 }, (_, i) => `nobody${i}@example.com`);

    const masks = [];
    for (const email of emails) masks.push((await app.loginInit(email)).body.phoneMasked as string);
    const again = [];
    for (const email of emails.slice(0, 5)) again.push((await app.loginInit(email)).body.phoneMasked as string);

    for (const mask of masks) expect(mask).toMatch(/^\+\*{7,9}\d{4}$/);
    expect(new Set(masks.map((m) => m.length))).toEqual(new Set([12, 13, 14]));
    expect(again).toEqual(masks.slice(0, 5));
  });

  test('nobody can compute an unknown e-mail’s decoy from the e-mail alone (it is keyed by the server’s secret)', async () => {
    app = await openCodesApp(CODE_STORES[0]!);
    const emails = Array.from({ length: 20 }, (_, i) => `guess${i}@example.com`);

    let computable = 0;
    for (const email of emails) {
      const mask = (await app.loginInit(email)).body.phoneMasked;
      if (mask === decoyMaskedPhone(sha256Hashing.hash(`phone:${email}`))) computable++;
    }

    expect(computable).toBeLessThan(3);
  });
});
