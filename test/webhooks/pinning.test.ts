import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpWebhookSender } from '../../src/adapters/webhooks/http-webhook-sender.ts';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { expectError } from '../http/fixtures.ts';
import { PUBLIC_ADDRESS, TableResolver } from '../support/host-resolver.ts';
import { seller } from '../support/http.ts';
import { receiver, webhookWorld, type Received } from './support.ts';

/**
 * A webhook goes to the very address that was checked: the host is resolved once per attempt, every
 * address judged, and the connection made to the first of them with the name kept as Host and as
 * TLS server name. A resolver that answers differently the second time (DNS rebinding) is never
 * asked twice. Registration resolves names too, and refuses those with an internal address.
 */

const message = { messageId: 'msg_pin', timestampSeconds: 1_700_000_000, body: '{"type":"webhook.test"}', secrets: [`whsec_${Buffer.alloc(24, 7).toString('base64')}`] };

/** A CA and a certificate for hooks.example.test only (no IP address in it), made with openssl for this run. */
function testCertificates() {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
  const run = (...args: string[]) => {
    const done = Bun.spawnSync(['openssl', ...args], { cwd: dir, stderr: 'pipe' });
    if (done.exitCode !== 0) throw new Error(`openssl ${args[0]}: ${done.stderr.toString()}`);
  };
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Webhook test CA');
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=hooks.example.test');
  Bun.spawnSync(['sh', '-c', 'printf "subjectAltName=DNS:hooks.example.test\\n" > ext.cnf'], { cwd: dir });
  run('x509', '-req', '-in', 'srv.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'srv.crt', '-days', '2', '-extfile', 'ext.cnf');
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const certificates = { ca: read('ca.crt'), cert: read('srv.crt'), key: read('srv.key') };
  rmSync(dir, { recursive: true, force: true });
  return certificates;
}

let plain: ReturnType<typeof receiver>;
let secure: { port: number; received: Received[]; stop: () => void };
let ca: string;

beforeAll(() => {
  plain = receiver();
  const certificates = testCertificates();
  ca = certificates.ca;
  const received: Received[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: certificates.cert, key: certificates.key },
    fetch: async (request) => {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      return new Response('ok');
    },
  });
  secure = { port: server.port!, received, stop: () => server.stop(true) };
});

afterAll(() => {
  plain.stop();
  secure.stop();
});

const plainPort = () => new URL(plain.url).port;

describe('the sender connects to the address it checked', () => {
  test('a rebinding resolver is asked once: the request reaches the first answer, with the name as Host', async () => {
    const resolver = new TableResolver({ 'rebind.example.test': (nth) => (nth === 1 ? ['127.0.0.1'] : ['10.66.66.66']) });
    const sender = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: true, resolver });
    const before = plain.received.length;

    const result = await sender.send({ url: `http://rebind.example.test:${plainPort()}/hook`, ...message });

    expect(result).toMatchObject({ status: 200, error: null });
    expect(resolver.asked).toEqual(['rebind.example.test']);
    expect(plain.received.slice(before).map((r) => [r.headers.host, r.headers['webhook-id']])).toEqual([[`rebind.example.test:${plainPort()}`, 'msg_pin']]);
  });

  test('what the check refused is never connected to, whatever a second answer would be', async () => {
    const resolver = new TableResolver({ 'rebind.example.test': (nth) => (nth === 1 ? ['127.0.0.1'] : [PUBLIC_ADDRESS]) });
    const sender = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: false, resolver });
    const before = plain.received.length;

    const result = await sender.send({ url: `http://rebind.example.test:${plainPort()}/hook`, ...message });

    expect(result.status).toBeNull();
    expect(result.error).toStartWith('refused: rebind.example.test does not resolve to public addresses only');
    expect(resolver.asked).toEqual(['rebind.example.test']);
    expect(plain.received.length).toBe(before);
  });

  test('a name with one internal address among public ones is refused; so is one that does not resolve, in the same words (the log is no oracle for internal names)', async () => {
    const resolver = new TableResolver({ 'mixed.example.test': [PUBLIC_ADDRESS, '::ffff:7f00:1'], 'six.example.test': ['2002:7f00:1::1'], 'nowhere.example.test': null, 'empty.example.test': [], 'zone.example.test': ['fe80::1%eth0'] });
    const sender = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: false, resolver });

    const refused = (host: string) => `refused: ${host} does not resolve to public addresses only (it does not resolve, or an address of it is private, loopback or otherwise internal)`;
    for (const host of ['mixed.example.test', 'six.example.test', 'nowhere.example.test', 'empty.example.test', 'zone.example.test']) {
      expect(await sender.send({ url: `https://${host}/hook`, ...message })).toMatchObject({ status: null, error: refused(host) });
    }
    // Even where private addresses are allowed, an answer that cannot be pinned (an IPv6 zone) is not reached by name instead.
    const open = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: true, resolver });
    expect((await open.send({ url: 'https://zone.example.test/hook', ...message })).error).toBe(refused('zone.example.test'));
  });

  test('with the system resolver, localhost (a name for loopback) is refused and never contacted', async () => {
    const sender = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: false });
    const before = plain.received.length;

    const result = await sender.send({ url: `http://localhost:${plainPort()}/hook`, ...message });

    expect(result.error).toStartWith('refused: localhost does not resolve to public addresses only');
    expect(plain.received.length).toBe(before);
  });

  test('over https, the pinned connection still sends the name as server name and checks the certificate against it', async () => {
    const resolver = new TableResolver({ 'hooks.example.test': ['127.0.0.1'], 'other.example.test': ['127.0.0.1'] });
    const sender = new HttpWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: true, resolver, ca });

    const right = await sender.send({ url: `https://hooks.example.test:${secure.port}/hook`, ...message });
    const wrongName = await sender.send({ url: `https://other.example.test:${secure.port}/hook`, ...message });

    expect(right).toMatchObject({ status: 200, error: null });
    expect(secure.received.map((r) => r.headers.host)).toEqual([`hooks.example.test:${secure.port}`]);
    // The certificate names hooks.example.test only: the same address under another name is refused by TLS.
    expect(wrongName.status).toBeNull();
    expect(wrongName.error).toMatch(/^request failed: .*(ALTNAME|altname|hostname|Hostname)/);
    expect(secure.received).toHaveLength(1);
  });
});

describe('registering resolves the name', () => {
  const resolver = new TableResolver({
    'internal.example.test': ['10.0.0.5'],
    'metadata.example.test': ['::ffff:169.254.169.254'],
    'mixed.example.test': [PUBLIC_ADDRESS, 'fd00::1'],
    'benchmark.example.test': ['198.18.0.10'],
    'nowhere.example.test': null,
  });
  const store = openSqliteStore(':memory:');
  const { api } = webhookWorld(store, { allowPrivate: false, resolver });
  afterAll(() => store.close());

  test.each([
    ['https://internal.example.test/hook', 'internal.example.test'],
    ['https://metadata.example.test/hook', 'metadata.example.test'],
    ['https://mixed.example.test/hook', 'mixed.example.test'],
    ['https://benchmark.example.test/hook', 'benchmark.example.test'],
    ['https://nowhere.example.test/hook', 'nowhere.example.test'],
  ])('%s: 400 invalid_request naming url, on create and on update, without saying which address (or whether any)', async (url, host) => {
    const me = await seller(api);
    const created = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url } });
    expectError(created, 400, 'invalid_request');
    expect(created.body.error.message).toBe(`url: ${host} does not resolve to public addresses only (it does not resolve, or an address of it is private, loopback or otherwise internal); webhooks are delivered only to public addresses.`);
    expect(created.body.error.details.issues[0].field).toBe('url');

    const endpoint = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: 'https://public.example.test/hook' } });
    expect(endpoint.status).toBe(201);
    const patched = await api.call('PATCH', `/developers/webhook-endpoints/${endpoint.body.id}`, { key: me.apiKey, body: { url } });
    expectError(patched, 400, 'invalid_request');
    expect((await api.call('GET', `/developers/webhook-endpoints/${endpoint.body.id}`, { key: me.apiKey })).body.url).toBe('https://public.example.test/hook');
  });

  test('a name whose addresses are all public is registered', async () => {
    const me = await seller(api);
    const reply = await api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: 'https://hooks.example.com/licensing' } });
    expect(reply.status).toBe(201);
    expect(resolver.asked).toContain('hooks.example.com');
  });

  test('with the allow-private setting nothing is resolved at registration', async () => {
    const open = new TableResolver({ 'internal.example.test': ['10.0.0.5'] });
    const local = openSqliteStore(':memory:');
    const world = webhookWorld(local, { allowPrivate: true, resolver: open });
    const me = await seller(world.api);
    expect((await world.api.call('POST', '/developers/webhook-endpoints', { key: me.apiKey, body: { url: 'http://internal.example.test:8080/hook' } })).status).toBe(201);
    expect(open.asked).toEqual([]);
    await local.close();
  });
});
