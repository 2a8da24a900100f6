import { describe, expect, test } from 'bun:test';
import { expectError } from '../http/fixtures.ts';
import { depsFor, sqliteDeps, testSettings } from '../support/deps.ts';
import { seller, testApi } from '../support/http.ts';
import { openPostgresTestStore } from '../contracts/stores.ts';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { mailedCode, trialShop } from './trial-shop.ts';

const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

describe('POST /trials with a publishable key: a code is e-mailed first', () => {
  test('answers 202 {trialRequestId, expiresIn} with no key, and stores no customer, license or claim', async () => {
    const { api, request } = await trialShop();

    const asked = await request({ name: 'ada-laptop' });

    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ trialRequestId: expect.stringMatching(/^trq_/), expiresIn: 300 });
    expect(JSON.stringify(asked.body)).not.toContain('eyJ');
    expect(await api.deps.customers.findByEmail('ada@example.com')).toBeNull();
  });

  test('the mail carries the code, in its text and HTML, to the address asked (normalized)', async () => {
    const { api, request } = await trialShop();
    await request({ email: '  Ada@Example.COM ' });

    const kept = (await api.call('GET', '/sandbox/mail?to=ada%40example.com')).body.data;

    expect(kept).toHaveLength(1);
    const code = await mailedCode(api, 'ada@example.com');
    expect(kept[0].to).toBe('ada@example.com');
    expect(kept[0].subject).toContain(code);
    expect(kept[0].html).toContain(code);
    expect(kept[0].text).toContain('free trial');
  });

  test('the mailed code confirms: 201 with the body a secret key gets at once, and the key validates', async () => {
    const { api, s, request, confirm, validate } = await trialShop();
    const asked = await request({ name: 'ada-laptop' });
    const now = api.clock.now();

    const started = await confirm(asked.body.trialRequestId, await mailedCode(api, 'ada@example.com'));
    const direct = await api.call('POST', '/trials', { key: s.apiKey, body: { productId: s.product.id, email: 'grace@example.com', machineFingerprint: 'machine-g', name: 'g' } });

    expect(started.status).toBe(201);
    expect(Object.keys(started.body).sort()).toEqual(Object.keys(direct.body).sort());
    expect(started.body.license).toMatchObject({ productId: s.product.id, status: 'active', trial: true, machineFingerprint: 'machine-a', expiresAt: now + 14 * 86_400_000 });
    expect(started.body.activation).toMatchObject({ name: 'ada-laptop', machineFingerprint: 'machine-a' });
    expect((await validate(started.body.licenseKey, 'machine-a')).body).toMatchObject({ valid: true, license: { id: started.body.license.id } });
  });

  test('a secret key still starts the trial at once: 201 with the key, no mail', async () => {
    const { api, request, s } = await trialShop();

    const started = await request({}, s.apiKey);

    expect(started.status).toBe(201);
    expect(started.body.licenseKey).toStartWith('eyJ');
    expect((await api.call('GET', '/sandbox/mail?to=ada%40example.com')).body.data).toEqual([]);
  });

  test('squatting: a request for someone else’s address, never confirmed, takes nothing; the owner then gets the trial', async () => {
    const { api, s, request, confirm, start } = await trialShop();
    const squatted = await request({ email: 'victim@example.com', machineFingerprint: 'squatter' });
    // Without the code the squatter can only guess, and every guess is refused.
    for (let i = 0; i < 5; i++) expectError(await confirm(squatted.body.trialRequestId, String(100000 + i)), 422, 'otp_invalid');

    expect(await api.deps.customers.findByEmail('victim@example.com')).toBeNull();
    const owner = await start({ email: 'victim@example.com', machineFingerprint: 'owner-machine' }, s.publishableKey);
    expect(owner.status).toBe(201);
    // The squatter's machine was never claimed either.
    expect((await start({ email: 'someone@example.com', machineFingerprint: 'squatter' }, s.publishableKey)).status).toBe(201);
  });

  test('checked up front: the product, its trial and the e-mail (nothing is mailed when refused)', async () => {
    const { api, s, request } = await trialShop();
    const other = await seller(api);

    expectError(await request({ productId: 'prod_unknown' }), 404, 'not_found');
    expectError(await request({}, other.publishableKey), 404, 'not_found');
    expectError(await request({ email: 'not-an-address' }), 400, 'invalid_request');
    await api.call('PATCH', `/developers/products/${s.product.id}`, { key: s.apiKey, body: { trialDays: null } });
    expectError(await request(), 409, 'trial_not_offered');
    expect((await api.call('GET', '/sandbox/mail?to=ada%40example.com')).body.data).toEqual([]);
  });
});

describe('POST /trials/confirm', () => {
  test('a wrong code is 422 otp_invalid and starts nothing; the right one still works', async () => {
    const { api, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');

    expectError(await confirm(trialRequestId, wrong(code)), 422, 'otp_invalid');
    expectError(await confirm(trialRequestId, 'abc'), 422, 'otp_invalid');
    expect(await api.deps.customers.findByEmail('ada@example.com')).toBeNull();
    expect((await confirm(trialRequestId, code)).status).toBe(201);
  });

  test('five wrong codes use the request up: the sixth attempt is 429 otp_attempts_exceeded, even with the right code', async () => {
    const { api, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');
    for (let i = 0; i < 5; i++) expectError(await confirm(trialRequestId, wrong(code)), 422, 'otp_invalid');

    const sixth = await confirm(trialRequestId, code);

    expectError(sixth, 429, 'otp_attempts_exceeded');
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test('after its 5 minutes the request is 410 otp_expired', async () => {
    const { api, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');

    api.clock.advance(300_000);

    expectError(await confirm(trialRequestId, code), 410, 'otp_expired');
    expect(await api.deps.customers.findByEmail('ada@example.com')).toBeNull();
  });

  test('a request confirms once: replaying the code after success is 409 conflict, and no second trial is made', async () => {
    const { api, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');
    const first = await confirm(trialRequestId, code);

    const replay = await confirm(trialRequestId, code);

    expect(first.status).toBe(201);
    expectError(replay, 409, 'conflict');
    const customer = (await api.deps.customers.findByEmail('ada@example.com'))!;
    expect(await api.deps.licenses.listByCustomer(customer.id)).toHaveLength(1);
  });

  test('another seller’s key, an unknown or a forged id is 404 not_found; NUL bytes and wrong bodies are 400', async () => {
    const { api, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');
    const other = await seller(api);

    expectError(await confirm(trialRequestId, code, other.publishableKey), 404, 'not_found');
    expectError(await confirm(trialRequestId, code, other.apiKey), 404, 'not_found');
    for (const forged of ['trq_unknown', 'x', "trq_' OR 1=1 --", '../trials', 'otp_abc', '😀'.repeat(20)]) {
      expectError(await confirm(forged, code), 404, 'not_found');
    }
    expectError(await confirm('trq_\u0000', code), 400, 'invalid_request');
    expectError(await confirm(trialRequestId, '12\u00003456'), 400, 'invalid_request');
    expectError(await confirm('x'.repeat(101), code), 400, 'invalid_request');
    for (const body of [{}, { trialRequestId }, { otp: code }, { trialRequestId: 1, otp: code }, { trialRequestId, otp: 123456 }]) {
      const reply = await api.call('POST', '/trials/confirm', { key: other.publishableKey, body });
      expectError(reply, 400, 'invalid_request');
    }
    expectError(await api.call('POST', '/trials/confirm', { body: { trialRequestId, otp: code } }), 401, 'unauthorized');
    // None of that used the request up.
    expect((await confirm(trialRequestId, code)).status).toBe(201);
  });

  test('the e-mail’s trial taken meanwhile (the seller’s server started one): 409 trial_already_used at confirmation', async () => {
    const { api, s, request, confirm } = await trialShop();
    const { trialRequestId } = (await request()).body;
    const code = await mailedCode(api, 'ada@example.com');
    await request({ machineFingerprint: 'machine-b' }, s.apiKey);

    const reply = await confirm(trialRequestId, code);

    expectError(reply, 409, 'trial_already_used');
    expect(reply.body.error.details).toEqual({ reason: 'email' });
  });
});

describe('limits on trial codes', () => {
  const shopBehindProxy = async () => {
    const { deps } = sqliteDeps();
    return trialShop(testApi({ deps: { ...deps, settings: testSettings({ trustedProxyHeader: 'x-forwarded-for' }) } }));
  };
  const from = (address: string) => ({ 'x-forwarded-for': address });

  test('3 codes to one address from one client per 15 minutes; another client may still ask', async () => {
    const { request, api } = await shopBehindProxy();
    for (let i = 0; i < 3; i++) expect((await request({}, undefined, from('203.0.113.7'))).status).toBe(202);

    const flooded = await request({}, undefined, from('203.0.113.7'));

    expectError(flooded, 429, 'rate_limited');
    expect(flooded.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await request({}, undefined, from('198.51.100.1'))).status).toBe(202);
    api.clock.advance(15 * 60_000);
    expect((await request({}, undefined, from('203.0.113.7'))).status).toBe(202);
  });

  test('at most 10 codes a day to one address, from anywhere', async () => {
    const { request } = await shopBehindProxy();
    for (let i = 0; i < 10; i++) expect((await request({}, undefined, from(`203.0.113.${i}`))).status).toBe(202);

    expectError(await request({}, undefined, from('198.51.100.1')), 429, 'rate_limited');
  });

  test('20 wrong codes for an e-mail from one client address lock that address for an hour; the owner asks from theirs', async () => {
    const { api, s, request, confirm } = await shopBehindProxy();
    const guesser = from('203.0.113.66');
    const requests: { id: string; code: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const { trialRequestId } = (await request({}, undefined, from(`203.0.113.${i}`))).body;
      requests.push({ id: trialRequestId, code: await mailedCode(api, 'ada@example.com') });
    }
    for (const r of requests) for (let i = 0; i < 5; i++) await confirm(r.id, wrong(r.code), s.publishableKey, guesser);

    expectError(await request({}, undefined, guesser), 429, 'rate_limited');
    expectError(await confirm(requests[3]!.id, requests[3]!.code, s.publishableKey, guesser), 429, 'rate_limited'); // locked, the right code too
    const owner = await request({}, undefined, from('198.51.100.1'));
    expect(owner.status).toBe(202);
    const started = await confirm(owner.body.trialRequestId, await mailedCode(api, 'ada@example.com'), s.publishableKey, from('198.51.100.1'));
    expect(started.status).toBe(201);
    api.clock.advance(60 * 60_000);
    expect((await request({ email: 'bob@example.com' }, undefined, guesser)).status).toBe(202);
  });

  test('a mail that cannot be sent is 502 mail_failed, and its challenge can never pass', async () => {
    const { deps, store } = sqliteDeps();
    const failing = { ...deps, mailer: { send: async () => { throw new Error('relay down'); } } };
    const { request } = await trialShop(testApi({ deps: failing }));

    const reply = await request();

    expectError(reply, 502, 'mail_failed');
    expect(JSON.stringify(reply.body)).not.toContain('relay down');
    const challenges = store.sqlite.query("SELECT used_at FROM otp_challenges WHERE scope = 'trial'").all() as { used_at: number | null }[];
    expect(challenges).toHaveLength(1);
    expect(challenges[0]!.used_at).not.toBeNull();
  });
});

describe('50 concurrent confirmations with the right code on PostgreSQL', () => {
  test('exactly one 201 and one license; the others are refused with JSON errors', async () => {
    const opened = await openPostgresTestStore();
    try {
      const { api, request, confirm } = await trialShop(testApi({ deps: depsFor(opened.store) }));
      const { trialRequestId } = (await request()).body;
      const code = await mailedCode(api, 'ada@example.com');

      const replies = await Promise.all(Array.from({ length: 50 }, () => confirm(trialRequestId, code)));

      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of replies.filter((r) => r.status !== 201)) {
        expect([409, 422, 429]).toContain(r.status);
        expect(typeof r.body.error.code).toBe('string');
      }
      const customer = (await api.deps.customers.findByEmail('ada@example.com'))!;
      expect(await api.deps.licenses.listByCustomer(customer.id)).toHaveLength(1);
    } finally {
      await opened.dispose();
    }
  });
});

describe('on PostgreSQL', () => {
  test('squatting takes nothing; the owner confirms with the mailed code and gets the trial; replay is 409', async () => {
    const opened = await openPostgresTestStore();
    try {
      const { api, s, request, confirm, validate } = await trialShop(testApi({ deps: depsFor(opened.store) }));
      const squatted = await request({ email: 'victim@example.com', machineFingerprint: 'squatter' });
      for (let i = 0; i < 3; i++) expectError(await confirm(squatted.body.trialRequestId, String(200000 + i)), 422, 'otp_invalid');
      expect(await api.deps.customers.findByEmail('victim@example.com')).toBeNull();

      const owner = (await request({ email: 'victim@example.com', machineFingerprint: 'owner' })).body.trialRequestId;
      const code = await mailedCode(api, 'victim@example.com');
      expectError(await confirm(owner, code, (await seller(api)).publishableKey), 404, 'not_found');
      expectError(await confirm('trq_\u0000x', code), 400, 'invalid_request');
      const started = await confirm(owner, code, s.apiKey);

      expect(started.status).toBe(201);
      expect((await validate(started.body.licenseKey, 'owner')).body.valid).toBe(true);
      expectError(await confirm(owner, code), 409, 'conflict');
    } finally {
      await opened.dispose();
    }
  });
});

describe('live mail (SMTP)', () => {
  test('the code goes to the address over SMTP, text and HTML, and confirms the trial', async () => {
    const sink = await startSmtpSink();
    const mailer = new SmtpMailer({ url: sink.url, from: 'Licensing <codes@licensing.test>', messageIdHost: 'licensing.test' });
    try {
      const { deps } = sqliteDeps();
      const { request, confirm } = await trialShop(testApi({ deps: { ...deps, mailer } }));
      const { trialRequestId } = (await request()).body;

      const [mail] = await sink.waitFor('ada@example.com');
      const code = /\b(\d{6})\b/.exec(mail!.text)![1]!;

      expect(mail!.to).toEqual(['ada@example.com']);
      expect(mail!.subject).toContain(code);
      expect(mail!.html).toContain(code);
      expect(mail!.raw).not.toContain(trialRequestId);
      expect((await confirm(trialRequestId, code)).status).toBe(201);
    } finally {
      mailer.close();
      await sink.close();
    }
  });
});
