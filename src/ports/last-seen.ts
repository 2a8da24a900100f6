import type { SeenMachine } from './license-repository.ts';

/**
 * Where a validation records that a bound machine was seen (lastSeenAt). The service's recorder
 * batches the writes behind the answers (docs/operating.md, "lastSeenAt"); without one, each is
 * written before the answer, as the store's touchActivation.
 */
export interface LastSeenRecorder {
  seen(machine: SeenMachine): void | Promise<void>;
}
