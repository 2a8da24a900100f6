import { expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';

test('unknown body fields are ignored, not refused: a newer client still talks to this version', async () => {
  const api = testApi();
  const s = await seller(api);
  const { licenseKey } = await s.grant();

  const signup = await api.call('POST', '/developers/signup', { body: { email: 'new@example.com', name: 'New', plan: 'pro' } });
  const validate = await api.call('POST', '/licenses/validate', {
    key: s.publishableKey,
    body: { licenseKey, machineFingerprint: 'm', appVersion: '2.0' },
  });
  const list = await api.call('GET', '/developers/products?limit=5&cacheBuster=1', { key: s.apiKey });

  expect(signup.status).toBe(201);
  expect(signup.body).not.toHaveProperty('plan');
  expect(validate.body.valid).toBe(true);
  expect(list.status).toBe(200);
});

test("a PATCH cannot change what is not changeable: a product's id and owner stay", async () => {
  const api = testApi();
  const s = await seller(api);
  const other = await seller(api);

  const patched = await api.call('PATCH', `/developers/products/${s.product.id}`, {
    key: s.apiKey,
    body: { name: 'Renamed', id: 'prod_hijacked', developerId: other.id, createdAt: 1 },
  });

  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({ id: s.product.id, name: 'Renamed', createdAt: s.product.createdAt });
  expect((await api.call('GET', '/developers/products', { key: s.apiKey })).body.data.map((p: { name: string }) => p.name)).toEqual(['Renamed']);
  expect((await api.call('GET', '/developers/products', { key: other.apiKey })).body.data).toHaveLength(1);
});
