import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';

describe('GET /v1/sandbox/mail: the mail sandbox mode kept', () => {
  test('lists what the mailer kept for the address, newest first, in any case of the address', async () => {
    const { deps, call, clock } = testApi();
    await deps.mailer.send({ to: 'Ada@Example.com', subject: 'First', text: 'one', html: '<p>one</p>' });
    clock.advance(1_000);
    await deps.mailer.send({ to: 'ada@example.com', subject: 'Second', text: 'Your code is 123456.', html: '<p>two</p>' });
    await deps.mailer.send({ to: 'bob@example.com', subject: 'Other', text: 'x', html: '<p>x</p>' });

    const reply = await call('GET', '/sandbox/mail?to=ADA%40example.com');
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(reply.body.data[0]).toEqual({ to: 'ada@example.com', subject: 'Second', text: 'Your code is 123456.', html: '<p>two</p>', sentAt: clock.now() });

    const page = await call('GET', '/sandbox/mail/view?to=ada%40example.com', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('<strong class="code">123456</strong>');
    expect(page.body).toContain('Second');
  });

  test.each([['', 'to'], ['not-an-address', 'to'], ['a%00b%40example.com', 'NUL']])('to=%p is a 400 saying %p', async (to, field) => {
    const { call } = testApi();
    const reply = await call('GET', `/sandbox/mail?to=${to}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_request');
    expect(JSON.stringify(reply.body.error)).toContain(field);
  });

  test('the page without an address: a 400 page asking for it, in a browser', async () => {
    const { call } = testApi();
    const page = await call('GET', '/sandbox/mail/view', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(page.body).toContain('Which address?');
    expect(page.body).toContain('name="to"');
  });

  test('markup in a kept mail is shown as text, never run', async () => {
    const { deps, call } = testApi();
    await deps.mailer.send({ to: 'eve@example.com', subject: '<script>alert(1)</script>', text: '<img src=x onerror=alert(1)>', html: '' });
    const page = await call('GET', '/sandbox/mail/view?to=eve%40example.com', { headers: { accept: 'text/html' } });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;script&gt;');
  });
});
