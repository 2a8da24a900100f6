// A separate thread with its own SQLite connection, binding one license as soon as every thread is ready.
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';

declare const self: Worker;

export interface BindOrder {
  path: string;
  licenseId: string;
  fingerprints: string[];
  /** [ready count, go flag]: every thread opens its connection first, then all bind together. */
  barrier: SharedArrayBuffer;
  threads: number;
}

self.onmessage = async (event: MessageEvent<BindOrder>) => {
  const { path, licenseId, fingerprints, barrier, threads } = event.data;
  const store = openSqliteStore(path);
  const flags = new Int32Array(barrier);
  if (Atomics.add(flags, 0, 1) + 1 === threads) {
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);
  } else {
    Atomics.wait(flags, 1, 0);
  }
  const results = await Promise.all(fingerprints.map((fp, i) => store.licenses.bindIfUnbound(licenseId, fp, i)));
  await store.close();
  self.postMessage(results);
};
