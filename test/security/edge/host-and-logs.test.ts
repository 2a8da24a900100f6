import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { SANDBOX_CODE } from '../../checkout/shop.ts';
import { startServer, type RunningServer } from '../../support/server-process.ts';
import { client, lines } from '../../e2e/support.ts';

/**
 * Routing follows the request line's path whatever the Host header says (Elysia looks for the path
 * from index 11 of the URL, so a host shorter than 4 characters used to shift it), and the request
 * log names the route pattern that was routed, never the ids in the path.
 */

/** One raw HTTP/1.1 request, exactly as written (fetch would fix the Host header): status and body. */
async function raw(port: number, head: string, body = ''): Promise<{ status: number; body: string }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

const HOSTS: [label: string, header: string][] = [
  ['x', 'Host: x'],
  ['empty', 'Host: '],
  ['three characters', 'Host: abc'],
  ['very long', `Host: ${'h'.repeat(300)}.example.com`],
  ['with a port', 'Host: x:1'],
  ['an IPv6 address', 'Host: [::1]'],
];

let server: RunningServer;
let port: number;
const requestLines = () =>
  lines(server.stdout())
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.msg === 'request');

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.stop();
});

describe.each(HOSTS)('Host header %s', (_label, host) => {
  test('GET /v1/health is 200 and GET /zz/v1/health is 404', async () => {
    const health = await raw(port, `GET /v1/health HTTP/1.1\r\n${host}`);
    const shifted = await raw(port, `GET /zz/v1/health HTTP/1.1\r\n${host}`);

    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
    expect(shifted.status).toBe(404);
  });

  test('a POST with a body is routed and read: signup is 201', async () => {
    const body = JSON.stringify({ email: `host-${crypto.randomUUID()}@example.com`, name: 'Host' });

    const reply = await raw(port, `POST /v1/developers/signup HTTP/1.1\r\n${host}\r\ncontent-type: application/json`, body);

    expect(reply.status).toBe(201);
  });
});

describe('a NUL in a credential header', () => {
  test.each(['X-API-Key: sk_a\u0000b', 'Authorization: Bearer idt_a\u0000b', 'X-Device-Fingerprint: fp\u0000'])('%s never reaches the service: the HTTP parser answers 400', async (header) => {
    const reply = await raw(port, `GET /v1/developers/products HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}`);

    expect(reply.status).toBe(400);
  });

  test('a key that spells out %00 is only an unknown key: 401', async () => {
    const reply = await raw(port, 'GET /v1/developers/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: sk_%00');

    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.body).error.code).toBe('unauthorized');
  });
});

describe('the request log (read once the server has stopped, so every line is in)', () => {
  test('names the routed path, never a checkout session id or any other id from a path: the route pattern instead', async () => {
    const call = client(server.url);
    const signup = await call('POST', '/developers/signup', { body: { email: `ids-${crypto.randomUUID()}@example.com`, name: 'Ids' } });
    const key = signup.body.apiKey as string;
    const product = await call('POST', '/developers/products', { key, body: { name: 'P', price: 100, currency: 'usd' } });
    const start = await call('POST', '/connect/start', { key });
    await call('GET', `/connect/callback?${new URLSearchParams({ code: SANDBOX_CODE, state: new URL(start.body.url).searchParams.get('state')! })}`);
    const init = await call('POST', '/checkout/init', { key, body: { productId: product.body.id } });
    const sessionId = init.body.sessionId as string;
    const grant = await call('POST', '/developers/licenses', { key, body: { productId: product.body.id, email: 'b@example.com' } });
    const before = requestLines().length;

    await raw(port, 'GET /v1/health HTTP/1.1\r\nHost: x');
    await raw(port, 'GET /zz/v1/health HTTP/1.1\r\nHost: x');
    await call('GET', `/checkout/status/${sessionId}`);
    await call('GET', `/sandbox/checkout/${sessionId}`);
    await call('GET', `/licenses/${grant.body.license.id}`, { key });
    await call('GET', `/developers/${signup.body.id}/jwks.json`);
    await call('PATCH', `/developers/products/${product.body.id}`, { key, body: { name: 'Q' } });
    await call('GET', `/checkout/status/${sessionId}/extra`);
    await server.stop();

    const output = server.output();
    expect(sessionId).toStartWith('cs_');
    expect(output).not.toContain(sessionId);
    expect(output).not.toContain(grant.body.license.id);
    expect(output).not.toContain(product.body.id);
    expect(output).not.toContain(signup.body.id);
    expect(requestLines().slice(before).map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/health', 200],
      ['GET', '(no route)', 404],
      ['GET', '/v1/checkout/status/:sessionId', 200],
      ['GET', '/v1/sandbox/checkout/:sessionId', 200],
      ['GET', '/v1/licenses/:id', 200],
      ['GET', '/v1/developers/:id/jwks.json', 200],
      ['PATCH', '/v1/developers/products/:id', 200],
      ['GET', '(no route)', 404],
    ]);
  });
});
