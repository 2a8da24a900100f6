import { expect, test } from 'bun:test';
import { seller, testApi } from '../support/http.ts';

const HOUR = 3_600_000;

test('a keyed request still running refreshes its claim, so a retry 16 seconds on is told to wait, not run a second time', async () => {
  const api = testApi();
  const s = await seller(api);
  const key = 'slow-grant';
  const body = { productId: s.product.id, email: 'slow@example.com' };
  const grant = () => api.call('POST', '/developers/licenses', { key: s.apiKey, headers: { 'Idempotency-Key': key }, body });
  const licenses = api.deps.licenses;
  const create = licenses.create.bind(licenses);
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  let writing = false;
  licenses.create = async (...args) => {
    writing = true;
    await held;
    return create(...args);
  };

  const first = grant();
  while (!writing) await Bun.sleep(10);
  const started = api.clock.now();
  api.clock.advance(8_000);
  // The holder's heartbeat (every 3 s of real time) writes the clock's time: wait until it has.
  const record = () => api.deps.idempotencyKeys.claim({ scope: `dev:${s.id}`, key, route: 'x', digest: 'x', createdAt: api.clock.now(), expiresAt: api.clock.now() + HOUR }, 0);
  const deadline = Date.now() + 30_000;
  while (((await record())?.heartbeatAt ?? started) === started && Date.now() < deadline) await Bun.sleep(200);
  expect((await record())?.heartbeatAt).toBe(started + 8_000);
  api.clock.advance(8_000);

  const retry = await grant();
  finish();
  const answered = await first;

  expect(retry.status).toBe(409);
  expect(answered.status).toBe(201);
  const after = await grant();
  expect(after.headers.get('idempotent-replayed')).toBe('true');
  expect(after.body.licenseKey).toBe(answered.body.licenseKey);
}, 60_000);
