import { describe, expect, test } from 'bun:test';
import { T0 } from './builders.ts';
import { freshStorePerTest, type StoreFactory } from './stores.ts';

const TYPE = 'checkout.session.completed';

export function incomingWebhookEventRepositoryContract(factory: StoreFactory): void {
  describe(`IncomingWebhookEventRepository on ${factory.name}`, () => {
    const opened = freshStorePerTest(factory);

    test('an event is claimed the first time only', async () => {
      const { store } = opened();

      const first = await store.incomingWebhookEvents.claim('evt_1', TYPE, T0);
      const again = await store.incomingWebhookEvents.claim('evt_1', TYPE, T0 + 1);

      expect(first).toBe(true);
      expect(again).toBe(false);
    });

    test('events with different ids are claimed independently', async () => {
      const { store } = opened();
      await store.incomingWebhookEvents.claim('evt_1', TYPE, T0);

      expect(await store.incomingWebhookEvents.claim('evt_2', TYPE, T0)).toBe(true);
    });

    test('a released event can be claimed again, once', async () => {
      const { store } = opened();
      await store.incomingWebhookEvents.claim('evt_1', TYPE, T0);

      await store.incomingWebhookEvents.release('evt_1');

      expect(await store.incomingWebhookEvents.claim('evt_1', TYPE, T0 + 1)).toBe(true);
      expect(await store.incomingWebhookEvents.claim('evt_1', TYPE, T0 + 2)).toBe(false);
    });

    test('releasing an unknown event does nothing to the others', async () => {
      const { store } = opened();
      await store.incomingWebhookEvents.claim('evt_1', TYPE, T0);

      await store.incomingWebhookEvents.release('evt_unknown');

      expect(await store.incomingWebhookEvents.claim('evt_1', TYPE, T0)).toBe(false);
    });

    test('10 concurrent deliveries of one event: exactly one claims it', async () => {
      const { store } = opened();

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.incomingWebhookEvents.claim('evt_raced', TYPE, T0 + i)));

      expect(results.filter(Boolean)).toHaveLength(1);
    });

    test('10 concurrent deliveries across two connections: exactly one claims it', async () => {
      const { store, connectAgain } = opened();
      const other = await connectAgain();

      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? store : other).incomingWebhookEvents.claim('evt_raced', TYPE, T0 + i)),
      );

      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
