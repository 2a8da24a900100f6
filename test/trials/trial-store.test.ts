import { describe, expect, test } from 'bun:test';
import type { Store } from '../../src/ports/deps.ts';
import type { TrialOutcome } from '../../src/ports/trial-repository.ts';
import { aCustomer, aLicense, aProduct, DAY, givenDeveloper, T0, unique } from '../contracts/builders.ts';
import { freshStorePerTest, STORE_FACTORIES } from '../contracts/stores.ts';

/** A developer and a product offering a 14-day trial on up to `maxMachines` machines. */
async function givenTrialProduct(store: Store, maxMachines = 2) {
  const { developer } = await givenDeveloper(store);
  const product = aProduct(developer.id, { trialDays: 14, maxMachines, licenseDays: 365 });
  await store.products.create(product);
  return { developerId: developer.id, productId: product.id };
}

type Product = Awaited<ReturnType<typeof givenTrialProduct>>;

/** Asks the store to start a trial of `product` for `email` on `machine`. */
function startTrial(store: Store, product: Product, email: string, machine: string, at = T0): Promise<TrialOutcome> {
  const customer = aCustomer({ email, phone: null, createdAt: at });
  const license = aLicense({ ...product, customerId: customer.id }, { trial: true, maxMachines: 2, issuedAt: at, expiresAt: at + 14 * DAY });
  return store.trials.start({ customer, license, keyHash: `hash_${unique()}`, machine: { id: `act_${unique()}`, machineFingerprint: machine, name: null, at } });
}

const activate = (store: Store, licenseId: string, machineFingerprint: string, at = T0 + 1) =>
  store.licenses.activate(licenseId, { id: `act_${unique()}`, machineFingerprint, name: null, at });
const started = (outcome: TrialOutcome) => {
  if (outcome.kind !== 'started') throw new Error(`expected a started trial, got ${JSON.stringify(outcome)}`);
  return outcome;
};
const email = () => `buyer-${unique()}@example.com`;

for (const factory of STORE_FACTORIES) {
  describe(`TrialRepository and trial activations on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a trial stores the customer, the trial license and its first machine together', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      const address = email();

      const { license, activation } = started(await startTrial(store, product, address, 'machine-a'));

      const customer = await store.customers.findByEmail(address);
      expect(license.customerId).toBe(customer!.id);
      expect(await store.licenses.findById(license.id)).toMatchObject({ trial: true, customerId: customer!.id, machineFingerprint: 'machine-a' });
      expect((await store.licenses.listActivations(license.id)).map((a) => a.id)).toEqual([activation.id]);
    });

    test('an e-mail that is already a customer keeps its customer', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      const known = await store.customers.findOrCreate(aCustomer());

      const { license } = started(await startTrial(store, product, known.email, 'machine-a'));

      expect(license.customerId).toBe(known.id);
    });

    test('100 concurrent starts for one e-mail on different machines: exactly one trial, the others are refused for the e-mail', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      const address = email();

      const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => startTrial(store, product, address, `machine-${i}`)));

      expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'claimed' && o.by === 'email')).toHaveLength(99);
      const customer = await store.customers.findByEmail(address);
      expect(await store.licenses.listByCustomer(customer!.id)).toHaveLength(1);
    });

    test('100 concurrent starts on one machine with different e-mails: exactly one trial; the refused leave nothing behind', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      const addresses = Array.from({ length: 100 }, email);

      const outcomes = await Promise.all(addresses.map((address) => startTrial(store, product, address, 'shared-machine')));

      expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'claimed' && o.by === 'machine')).toHaveLength(99);
      const customers = await Promise.all(addresses.map((address) => store.customers.findByEmail(address)));
      expect(customers.filter((c) => c !== null)).toHaveLength(1);
    });

    test('raced across two connections, one e-mail and one machine still get one trial each', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const product = await givenTrialProduct(store);
      const address = email();

      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => startTrial(i % 2 ? other : store, product, i % 4 < 2 ? address : email(), i % 4 < 2 ? `machine-${i}` : 'shared-machine')),
      );

      // Half the starts share the e-mail, the other half the machine: one winner in each half.
      expect(outcomes.filter((o) => o.kind === 'started')).toHaveLength(2);
    });

    test('the same machine may start the trial of another product', async () => {
      const { store } = opened();
      const first = await givenTrialProduct(store);
      const second = await givenTrialProduct(store);
      const address = email();

      started(await startTrial(store, first, address, 'machine-a'));

      expect((await startTrial(store, second, address, 'machine-a')).kind).toBe('started');
    });

    test('a trial license cannot be activated on a machine that already had the product’s trial', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      started(await startTrial(store, product, email(), 'machine-a'));
      const { license } = started(await startTrial(store, product, email(), 'machine-b'));

      expect(await activate(store, license.id, 'machine-a')).toEqual({ kind: 'trial_used' });
      expect((await activate(store, license.id, 'machine-c')).kind).toBe('created');
      expect((await store.licenses.listActivations(license.id)).map((a) => a.machineFingerprint).sort()).toEqual(['machine-b', 'machine-c']);
    });

    test('a paid license of the product is activated on such a machine as usual', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      started(await startTrial(store, product, email(), 'machine-a'));
      const customer = await store.customers.findOrCreate(aCustomer());
      const paid = aLicense({ ...product, customerId: customer.id });
      await store.licenses.create(paid, `hash_${unique()}`);

      expect((await activate(store, paid.id, 'machine-a')).kind).toBe('created');
    });

    test('a trial’s own machine, removed and activated again, is still its own', async () => {
      const { store } = opened();
      const product = await givenTrialProduct(store);
      const { license } = started(await startTrial(store, product, email(), 'machine-a'));
      await store.licenses.deactivate(license.id, { machineFingerprint: 'machine-a' });

      expect((await activate(store, license.id, 'machine-a')).kind).toBe('created');
    });

    test('two trial licenses activated on one new machine at once: exactly one gets it', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();
      const product = await givenTrialProduct(store);
      const trials = await Promise.all(Array.from({ length: 10 }, (_, i) => startTrial(store, product, email(), `machine-${i}`)));

      const outcomes = await Promise.all(trials.map((t, i) => activate(i % 2 ? other : store, started(t).license.id, 'contested-machine')));

      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'trial_used')).toHaveLength(9);
    });
  });
}
