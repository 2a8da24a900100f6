import { describe, expect, test } from 'bun:test';
import { testApi } from '../support/http.ts';
import { developerWorld, expectError, ownerHeaders, routeTable, world, worldFor, type World } from './fixtures.ts';

type Kind = 'string' | 'nullableString' | 'integer' | 'nullableInteger' | 'boolean' | 'strings';

/** The fields of every route that takes a body, with their kind and whether they are required. */
const FIELDS: Record<string, Record<string, { kind: Kind; required: boolean }>> = {
  'POST /developers/signup': { email: { kind: 'string', required: true }, name: { kind: 'string', required: true } },
  'POST /developers/products': {
    name: { kind: 'string', required: true }, price: { kind: 'integer', required: true }, currency: { kind: 'string', required: true },
    features: { kind: 'strings', required: false }, licenseDays: { kind: 'nullableInteger', required: false },
    maxMachines: { kind: 'nullableInteger', required: false }, deactivationsPer30Days: { kind: 'integer', required: false },
    interval: { kind: 'nullableString', required: false }, graceDays: { kind: 'integer', required: false }, trialDays: { kind: 'nullableInteger', required: false },
    maxLeases: { kind: 'nullableInteger', required: false }, leaseSeconds: { kind: 'integer', required: false }, maxBorrowHours: { kind: 'integer', required: false },
  },
  'PATCH /developers/products/:id': {
    name: { kind: 'string', required: false }, price: { kind: 'integer', required: false }, currency: { kind: 'string', required: false },
    features: { kind: 'strings', required: false }, licenseDays: { kind: 'nullableInteger', required: false }, active: { kind: 'boolean', required: false },
    maxMachines: { kind: 'nullableInteger', required: false }, deactivationsPer30Days: { kind: 'integer', required: false },
    interval: { kind: 'nullableString', required: false }, graceDays: { kind: 'integer', required: false }, trialDays: { kind: 'nullableInteger', required: false },
    maxLeases: { kind: 'nullableInteger', required: false }, leaseSeconds: { kind: 'integer', required: false }, maxBorrowHours: { kind: 'integer', required: false },
  },
  'POST /developers/api-keys': { scope: { kind: 'string', required: true } },
  'POST /developers/signing-keys/rotate': { notBefore: { kind: 'integer', required: false }, compromised: { kind: 'boolean', required: false } },
  'POST /developers/webhook-endpoints': {
    url: { kind: 'string', required: true }, events: { kind: 'strings', required: false }, description: { kind: 'nullableString', required: false },
  },
  // events may also be null there (back to every event), which no kind here says.
  'PATCH /developers/webhook-endpoints/:id': {
    url: { kind: 'string', required: false }, description: { kind: 'nullableString', required: false }, enabled: { kind: 'boolean', required: false },
  },
  'POST /developers/licenses': {
    productId: { kind: 'string', required: true }, email: { kind: 'string', required: true },
    features: { kind: 'strings', required: false }, expiresAt: { kind: 'nullableInteger', required: false },
  },
  'POST /licenses/validate': { licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true } },
  'POST /licenses/activate': {
    licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true }, name: { kind: 'nullableString', required: false },
  },
  'POST /licenses/deactivate': { licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true } },
  'POST /licenses/activations': { licenseKey: { kind: 'string', required: true } },
  'POST /licenses/leases': { licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true }, borrowHours: { kind: 'integer', required: false } },
  'POST /licenses/leases/:id/heartbeat': { licenseKey: { kind: 'string', required: true } },
  'POST /licenses/leases/:id/release': { licenseKey: { kind: 'string', required: true } },
  'PUT /licenses/:id/lease-terms': {
    maxLeases: { kind: 'nullableInteger', required: true }, leaseSeconds: { kind: 'nullableInteger', required: true }, maxBorrowHours: { kind: 'nullableInteger', required: true },
  },
  'POST /sandbox/clock': { advanceDays: { kind: 'integer', required: true } },
  'POST /trials': {
    productId: { kind: 'string', required: true }, email: { kind: 'string', required: true },
    machineFingerprint: { kind: 'string', required: true }, name: { kind: 'nullableString', required: false },
  },
  'POST /trials/confirm': { trialRequestId: { kind: 'string', required: true }, otp: { kind: 'string', required: true } },
  'PATCH /licenses/:id': { maxMachines: { kind: 'nullableInteger', required: true } },
  'PUT /licenses/:id/entitlements': { entitlements: { kind: 'strings', required: true } },
  'POST /checkout/init': {
    productId: { kind: 'string', required: true }, email: { kind: 'string', required: false },
    successUrl: { kind: 'string', required: false }, cancelUrl: { kind: 'string', required: false },
  },
  'POST /auth/login/init': { email: { kind: 'string', required: true } },
  'POST /auth/login/verify': {
    email: { kind: 'string', required: true }, otpId: { kind: 'string', required: true },
    otp: { kind: 'string', required: true }, deviceFingerprint: { kind: 'string', required: true },
  },
  'POST /purchase/init': { productId: { kind: 'string', required: true } },
  'POST /purchase/otp': { purchaseId: { kind: 'string', required: true } },
  'POST /purchase/confirm': {
    purchaseId: { kind: 'string', required: true }, otpId: { kind: 'string', required: true },
    otp: { kind: 'string', required: true }, cardId: { kind: 'string', required: true },
  },
  'POST /customer/phone': { phone: { kind: 'string', required: true } },
  'POST /customer/card': { subscriptionId: { kind: 'string', required: true } },
  'POST /licenses/machine-file': {
    licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true },
    legacyFingerprint: { kind: 'string', required: false }, ttlDays: { kind: 'integer', required: false },
  },
  'POST /licenses/:id/machine-files': {
    licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true },
    legacyFingerprint: { kind: 'string', required: false }, ttlDays: { kind: 'integer', required: false },
  },
  'POST /customer/licenses/:id/machine-file': {
    licenseKey: { kind: 'string', required: true }, machineFingerprint: { kind: 'string', required: true },
    legacyFingerprint: { kind: 'string', required: false }, ttlDays: { kind: 'integer', required: false },
  },
  'POST /customer/phone/verify': {
    otpId: { kind: 'string', required: true }, otp: { kind: 'string', required: true }, phone: { kind: 'string', required: true },
  },
};

/** Values of the wrong JSON type for a field of this kind. */
function wrongTypes(kind: Kind): unknown[] {
  const all: Record<string, unknown> = { object: { a: 1 }, string: '12', number: 12, boolean: true, array: ['x'], nested: [[1]] };
  const fine: Record<Kind, string[]> = {
    string: ['string'], nullableString: ['string'], integer: ['number'], nullableInteger: ['number'], boolean: ['boolean'], strings: ['array'],
  };
  const values = Object.entries(all).filter(([k]) => !fine[kind].includes(k)).map(([, v]) => v);
  if (kind !== 'nullableInteger' && kind !== 'nullableString') values.push(null);
  if (kind === 'strings') values.push([1, 2], [null], [{}]);
  return values;
}

const table = routeTable(await world(testApi()));
const call = (w: World, name: string, body: unknown) => {
  const r = routeTable(w).find((x) => x.name === name)!;
  return w.api.call(r.method, r.path(), { headers: ownerHeaders(w, r), body });
};
const valid = (w: World, name: string) => routeTable(w).find((x) => x.name === name)!.body!();

test('every route with a body has its fields described here', () => {
  expect(Object.keys(FIELDS).sort()).toEqual(table.filter((r) => r.body).map((r) => r.name).sort());
});

describe.each(Object.keys(FIELDS).map((name) => [name]))('%s', (name) => {
  // One world per route: these requests are refused (400), or at most an empty body a route takes.
  let made: Promise<World> | undefined;
  const worldOf = () => (made ??= worldFor(name));
  test.each(Object.entries(FIELDS[name]!).map(([field, spec]) => [field, spec.kind]))('%s of the wrong type is 400 naming the field', async (field, kind) => {
    const w = await worldOf();
    for (const value of wrongTypes(kind as Kind)) {
      const reply = await call(w, name, { ...valid(w, name), [field as string]: value });
      expect({ value, status: reply.status }).toEqual({ value, status: 400 });
      expectError(reply, 400, 'invalid_request');
      expect({ value, details: JSON.stringify(reply.body.error.details) }).toEqual({ value, details: expect.stringContaining(field as string) });
    }
  });

  const required = Object.entries(FIELDS[name]!).filter(([, s]) => s.required).map(([f]) => [f]);
  if (required.length > 0) {
    test.each(required)('missing %s is 400 naming the field', async (field) => {
      const w = await worldOf();
      const body: Record<string, unknown> = valid(w, name);
      delete body[field];
      const reply = await call(w, name, body);
      expectError(reply, 400, 'invalid_request');
      expect(JSON.stringify(reply.body.error.details)).toContain(field);
    });
  }

  test('an empty object is 400 when fields are required, and for a PATCH with nothing to change', async () => {
    const w = await worldOf();
    const reply = await call(w, name, {});
    if (required.length > 0 || name.startsWith('PATCH')) expectError(reply, 400, 'invalid_request');
    else expect([200, 201]).toContain(reply.status);
  });

  const strings = Object.entries(FIELDS[name]!).filter(([, s]) => s.kind === 'string').map(([f]) => [f]);
  test.each(strings)('a huge %s (20 KB) is 400 invalid_request', async (field) => {
    const w = await worldOf();
    expectError(await call(w, name, { ...valid(w, name), [field]: 'x'.repeat(20_000) }), 400, 'invalid_request');
  });
});

describe('numbers and codes out of range', () => {
  const product = { name: 'P', price: 100, currency: 'usd' };
  const bad: [string, Record<string, unknown>][] = [
    ['price -1', { price: -1 }], ['price 1.5', { price: 1.5 }], ['price 1e12', { price: 1e12 }], ['price 1e400', { price: 1e400 }],
    ['licenseDays 0', { licenseDays: 0 }], ['licenseDays -1', { licenseDays: -1 }], ['licenseDays 1.5', { licenseDays: 1.5 }], ['licenseDays 36501', { licenseDays: 36_501 }],
    // Upper case is accepted (and stored in lower case): test/http/honest-errors.test.ts.
    ['currency US', { currency: 'US' }], ['currency 123', { currency: '123' }], ['currency us', { currency: 'us' }], ['currency usdd', { currency: 'usdd' }],
    ['currency empty', { currency: '' }], ['currency u$d', { currency: 'u$d' }], ['currency üsd', { currency: 'üsd' }],
    ['name empty', { name: '' }], ['name blank', { name: '   ' }], ['name 201 chars', { name: 'x'.repeat(201) }],
    ['feature empty', { features: [''] }], ['101 features', { features: Array.from({ length: 101 }, (_, i) => `f${i}`) }],
  ];

  test.each(bad)('POST /developers/products with %s is 400', async (_, change) => {
    const w = await developerWorld();
    expectError(await call(w, 'POST /developers/products', { ...product, ...change }), 400, 'invalid_request');
  });

  test.each(bad)('PATCH /developers/products/:id with %s is 400', async (_, change) => {
    const w = await developerWorld();
    expectError(await call(w, 'PATCH /developers/products/:id', change), 400, 'invalid_request');
  });

  test.each([['expiresAt 1.5', { expiresAt: 1.5 }], ['expiresAt -1', { expiresAt: -1 }], ['expiresAt as a date string', { expiresAt: '2030-01-01' }]])(
    'POST /developers/licenses with %s is 400',
    async (_, change) => {
      const w = await developerWorld();
      expectError(await call(w, 'POST /developers/licenses', { ...valid(w, 'POST /developers/licenses'), ...change }), 400, 'invalid_request');
    },
  );

  test('numbers and booleans sent as strings are 400, never silently converted ("0x10" is not 16)', async () => {
    const w = await developerWorld();
    const future = String(w.api.clock.now() + 86_400_000);
    const cases: [string, Record<string, unknown>][] = [
      ['POST /developers/products', { ...product, price: '0x10' }],
      ['POST /developers/products', { ...product, price: '1999' }],
      ['POST /developers/products', { ...product, licenseDays: '30' }],
      ['PATCH /developers/products/:id', { active: 'false' }],
      ['POST /developers/licenses', { ...valid(w, 'POST /developers/licenses'), expiresAt: future }],
    ];
    const accepted = [];
    for (const [name, body] of cases) if ((await call(w, name, body)).status < 300) accepted.push(`${name} ${JSON.stringify(body)}`);
    expect(accepted).toEqual([]);
  });

  test('POST /licenses/validate with an empty fingerprint is 400', async () => {
    const w = await developerWorld();
    expectError(await call(w, 'POST /licenses/validate', { licenseKey: w.licenseKey, machineFingerprint: '' }), 400, 'invalid_request');
  });

  test('valid edge values are accepted: price 0 and 99999999, licenseDays 1 and 36500', async () => {
    const w = await developerWorld();
    for (const change of [{ price: 0 }, { price: 99_999_999 }, { licenseDays: 1 }, { licenseDays: 36_500 }]) {
      expect((await call(w, 'POST /developers/products', { ...product, ...change })).status).toBe(201);
    }
  });
});
