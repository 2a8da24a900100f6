import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { expectError } from './fixtures.ts';

const signup = (api = testApi(), body: unknown = { email: 'ann@example.com', name: 'Ann' }) =>
  api.call('POST', '/developers/signup', { body });

describe('POST /developers/signup', () => {
  test('creates an account: 201 {id, email, name, secretKey sk_… (also as apiKey, its earlier name), publishableKey pk_…, createdAt}', async () => {
    const api = testApi();
    const reply = await signup(api);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^dev_/),
      email: 'ann@example.com',
      name: 'Ann',
      secretKey: expect.stringMatching(/^sk_[A-Za-z0-9]{20,}$/),
      apiKey: reply.body.secretKey,
      publishableKey: expect.stringMatching(/^pk_[A-Za-z0-9]{20,}$/),
      createdAt: api.clock.now(),
    });
  });

  test('the returned keys work: sk for developer operations, pk for validation', async () => {
    const api = testApi();
    const { apiKey, publishableKey } = (await signup(api)).body;
    expect((await api.call('GET', '/developers/products', { key: apiKey })).status).toBe(200);
    const validate = await api.call('POST', '/licenses/validate', { key: publishableKey, body: { licenseKey: 'x', machineFingerprint: 'm' } });
    expect(validate.body).toEqual({ valid: false, reason: 'invalid_format' });
  });

  test('two accounts get different ids and keys', async () => {
    const api = testApi();
    const a = (await signup(api, { email: 'a@example.com', name: 'A' })).body;
    const b = (await signup(api, { email: 'b@example.com', name: 'B' })).body;
    expect(new Set([a.id, b.id]).size).toBe(2);
    expect(new Set([a.apiKey, b.apiKey, a.publishableKey, b.publishableKey]).size).toBe(4);
  });

  test('a taken e-mail is 409 email_taken', async () => {
    const api = testApi();
    await signup(api);
    expectError(await signup(api), 409, 'email_taken');
  });

  test('e-mails are compared without regard to case', async () => {
    const api = testApi();
    await signup(api, { email: 'Ann@Example.com', name: 'Ann' });
    expectError(await signup(api, { email: 'ann@EXAMPLE.COM', name: 'Other Ann' }), 409, 'email_taken');
  });

  test('an invalid e-mail is 400 invalid_request naming the field', async () => {
    const reply = await signup(testApi(), { email: 'not-an-email', name: 'Ann' });
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error.details)).toContain('email');
  });

  test('a blank name is 400 invalid_request', async () => {
    expectError(await signup(testApi(), { email: 'ann@example.com', name: '   ' }), 400, 'invalid_request');
    expectError(await signup(testApi(), { email: 'ann@example.com', name: '' }), 400, 'invalid_request');
  });

  test('missing fields are 400 invalid_request with details', async () => {
    const reply = await signup(testApi(), { email: 'ann@example.com' });
    expectError(reply, 400, 'invalid_request');
    expect(JSON.stringify(reply.body.error.details)).toContain('name');
  });

  test('a failed signup creates nothing: the e-mail stays free', async () => {
    const api = testApi();
    await signup(api, { email: 'ann@example.com', name: '' });
    expect((await signup(api)).status).toBe(201);
  });
});

describe('GET /developers/:id/jwks.json', () => {
  test('publishes the developer’s Ed25519 public key as a JWK Set, without authentication', async () => {
    const api = testApi();
    const dev = (await signup(api)).body;
    const reply = await api.call('GET', `/developers/${dev.id}/jwks.json`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: expect.any(String), alg: 'EdDSA', use: 'sig', status: 'current', notBefore: api.clock.now() }],
    });
  });

  test('the kid in the JWKS is the kid in the developer’s license keys', async () => {
    const api = testApi();
    const dev = (await signup(api)).body;
    const product = await api.call('POST', '/developers/products', { key: dev.apiKey, body: { name: 'P', price: 1, currency: 'usd' } });
    const grant = await api.call('POST', '/developers/licenses', { key: dev.apiKey, body: { productId: product.body.id, email: 'b@example.com' } });
    const header = JSON.parse(Buffer.from(grant.body.licenseKey.split('.')[0], 'base64url').toString());
    const jwks = await api.call('GET', `/developers/${dev.id}/jwks.json`);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toEqual([header.kid]);
  });

  test('an unknown developer is 404 not_found', async () => {
    expectError(await testApi().call('GET', '/developers/dev_doesNotExist/jwks.json'), 404, 'not_found');
  });
});
