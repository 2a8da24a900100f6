import { describe, expect, test } from 'bun:test';
import { aCustomer, aLicense, aProduct, givenDeveloper, givenLicense, givenLicenseParties, T0, unique } from '../contracts/builders.ts';
import { freshStorePerTest, openPostgresTestStore, postgresStores } from '../contracts/stores.ts';

describe('PostgreSQL store lifecycle', () => {
  test('ping answers true while the pool is open and false once it is closed', async () => {
    const own = await openPostgresTestStore();

    const whileOpen = await own.store.ping();
    await own.dispose();
    const afterClose = await own.store.ping();

    expect([whileOpen, afterClose]).toEqual([true, false]);
  });

  test("the pool's search_path is the named schema, and the tables live there", async () => {
    const own = await openPostgresTestStore();
    const { developer } = await givenDeveloper(own.store);
    const { sql, schema } = own.store;

    const [found] = await sql.unsafe(`SELECT id FROM "${schema}"."developers"`);
    const [resolved] = await sql`SELECT current_schema() AS name`;
    await own.dispose();

    expect(schema).toMatch(/^tp_[0-9a-f]{6}_\d+_\d+_\d+$/);
    expect(found.id).toBe(developer.id);
    expect(resolved.name).toBe(schema);
  });
});

describe('PostgreSQL store', () => {
  const opened = freshStorePerTest(postgresStores);

  test('each schema is its own store: records in one are invisible from another', async () => {
    const { store } = opened();
    const elsewhere = await openPostgresTestStore();
    const { license, keyHash } = await givenLicense(store);

    const seenElsewhere = await elsewhere.store.licenses.findStateByKeyHash(keyHash);
    const seenHere = await store.licenses.findById(license.id);
    await elsewhere.dispose();

    expect(seenElsewhere).toBeNull();
    expect(seenHere).toEqual(license);
  });

  test('product ids break createdAt ties bytewise, upper case before lower case, as SQLite orders them', async () => {
    const { store } = opened();
    const { developer } = await givenDeveloper(store);
    const ids = ['prod_b', 'prod_B', 'prod_a', 'prod_A'];
    for (const id of ids) await store.products.create(aProduct(developer.id, { id, createdAt: T0 }));

    const first = await store.products.list(developer.id, { limit: 2 });
    const rest = await store.products.list(developer.id, { limit: 2, startingAfter: first.data[1]!.id });

    expect([...first.data, ...rest.data].map((p) => p.id)).toEqual(['prod_A', 'prod_B', 'prod_a', 'prod_b']);
  });

  test("a customer's licenses issued at the same time are listed by id bytewise", async () => {
    const { store } = opened();
    const parties = await givenLicenseParties(store);
    for (const id of ['lic_b', 'lic_B', 'lic_a']) await store.licenses.create(aLicense(parties, { id, issuedAt: T0 }), `hash_${unique()}`);

    const listed = await store.licenses.listByCustomer(parties.customerId);

    expect(listed.map((l) => l.id)).toEqual(['lic_B', 'lic_a', 'lic_b']);
  });

  test('times beyond 32 bits and empty or many features round-trip exactly', async () => {
    const { store } = opened();
    const parties = await givenLicenseParties(store);
    const far = aLicense(parties, { issuedAt: 8_640_000_000_000_000, expiresAt: null, features: [] });
    const many = aLicense(parties, { features: Array.from({ length: 50 }, (_, i) => `feature-${i} "quoted" ünïcode`) });

    await store.licenses.create(far, `hash_${unique()}`);
    await store.licenses.create(many, `hash_${unique()}`);

    expect(await store.licenses.findById(far.id)).toEqual(far);
    expect(await store.licenses.findById(many.id)).toEqual(many);
  });

  test('40 concurrent first orders with one e-mail across two pools create one customer', async () => {
    const { store, connectAgain } = opened();
    const other = await connectAgain();
    const candidates = Array.from({ length: 40 }, () => aCustomer({ email: 'rush@example.com' }));

    const results = await Promise.all(candidates.map((c, i) => (i % 2 ? other : store).customers.findOrCreate(c)));

    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await store.customers.findByEmail('rush@example.com')).toEqual(results[0]!);
  });
});
