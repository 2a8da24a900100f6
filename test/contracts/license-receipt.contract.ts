import { describe, expect, test } from 'bun:test';
import type { OutboxMail } from '../../src/ports/mail-repository.ts';
import type { Store } from '../../src/ports/deps.ts';
import { aCustomer, aLicense, DAY, givenLicense, givenLicenseParties, T0, unique } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const aReceipt = (licenseId: string, over: Partial<OutboxMail> = {}): OutboxMail => ({
  id: `mail_${unique()}`,
  kind: 'receipt',
  licenseId,
  to: 'buyer@example.com',
  subject: 'Your license',
  text: 'key',
  html: '<p>key</p>',
  createdAt: T0,
  ...over,
});

/** Every mail queued so far (claimed far in the future, so all are due). */
const queued = async (store: Store) => (await store.mailOutbox.claimDue(T0 + 1000 * DAY, 100, 1)).map((m) => ({ id: m.id, licenseId: m.licenseId }));

/** A receipt is written in the transaction of the license change it reports: the mail exists iff the change does. */
export function licenseReceiptContract(factory: StoreFactory): void {
  describe(`license receipts in the license's transaction on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('a new license queues its receipt; a license refused (its origin taken) queues none', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const [first, second] = [aLicense(parties), aLicense(parties)];
      const [kept, refused] = [aReceipt(first.id), aReceipt(second.id)];

      await store.licenses.create(first, `hash_${unique()}`, { checkoutSessionId: 'cs_once' }, kept);
      const error = await store.licenses.create(second, `hash_${unique()}`, { checkoutSessionId: 'cs_once' }, refused).catch((e: { code?: string }) => e);

      expect(error).toMatchObject({ code: 'conflict' });
      expect(await store.licenses.findById(second.id)).toBeNull();
      expect(await queued(store)).toEqual([{ id: kept.id, licenseId: first.id }]);
    });

    test('a reissue that wins queues its receipt; one that loses its compare-and-swap queues none', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const [won, lost] = [aReceipt(license.id, { kind: 'receipt' }), aReceipt(license.id)];
      const change = { licenseKey: 'h.p.new', keyHash: 'hash_new', expiresAt: T0 + 400 * DAY, features: [], at: T0 };

      expect(await store.licenses.reissue(license.id, { ...change, expectKeyHash: keyHash, mail: won })).not.toBeNull();
      expect(await store.licenses.reissue(license.id, { ...change, expectKeyHash: keyHash, keyHash: 'hash_other', mail: lost })).toBeNull();

      expect(await queued(store)).toEqual([{ id: won.id, licenseId: license.id }]);
    });

    test('of 10 concurrent renewals of one license, one queues its receipt', async () => {
      const { store } = opened();
      const { license, keyHash } = await givenLicense(store);
      const rivals = Array.from({ length: 10 }, (_, i) => ({ expectKeyHash: keyHash, licenseKey: `h.p.${i}`, keyHash: `hash_${i}`, expiresAt: T0 + 400 * DAY, features: [], at: T0, mail: aReceipt(license.id) }));

      await Promise.all(rivals.map((r) => store.licenses.reissue(license.id, r)));

      expect(await queued(store)).toHaveLength(1);
    });

    test('a trial started queues its receipt; a trial refused (already claimed) queues none', async () => {
      const { store } = opened();
      const parties = await givenLicenseParties(store);
      const start = (email: string) => {
        const customer = aCustomer({ email });
        const license = aLicense({ ...parties, customerId: customer.id }, { trial: true });
        const mail = aReceipt(license.id, { to: email });
        return { mail, outcome: store.trials.start({ customer, license, keyHash: `hash_${unique()}`, machine: { id: `act_${unique()}`, machineFingerprint: 'fp-trial', name: null, at: T0 }, mail }) };
      };

      const started = start('trial@example.com');
      expect((await started.outcome).kind).toBe('started');
      const refused = start('other@example.com');
      expect((await refused.outcome).kind).toBe('claimed');

      expect((await queued(store)).map((m) => m.id)).toEqual([started.mail.id]);
    });
  });
}
