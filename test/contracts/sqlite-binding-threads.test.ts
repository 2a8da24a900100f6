import { expect, test } from 'bun:test';
import type { BindOrder } from './sqlite-bind-worker.ts';
import { givenLicense } from './builders.ts';
import { openSqliteTestStore } from './stores.ts';

const THREADS = 4;
const PER_THREAD = 6;

function bindInThread(order: BindOrder): Promise<(string | null)[]> {
  const worker = new Worker(new URL('./sqlite-bind-worker.ts', import.meta.url).href);
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<(string | null)[]>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (error) => {
      reject(error);
      worker.terminate();
    };
    worker.postMessage(order);
  });
}

test('24 binds from 4 threads, each with its own SQLite connection, agree on one winner', async () => {
  const opened = await openSqliteTestStore();
  try {
    const { license } = await givenLicense(opened.store);
    const barrier = new SharedArrayBuffer(8);
    const orders = Array.from({ length: THREADS }, (_, t) =>
      Array.from({ length: PER_THREAD }, (_, i) => `machine-${t}-${i}`),
    );

    const results = (
      await Promise.all(orders.map((fingerprints) => bindInThread({ path: opened.path, licenseId: license.id, fingerprints, barrier, threads: THREADS })))
    ).flat();

    const winner = results[0]!;
    expect(orders.flat()).toContain(winner);
    expect(results).toEqual(results.map(() => winner));
    expect((await opened.store.licenses.findStateById(license.id))!.machineFingerprint).toBe(winner);
  } finally {
    await opened.dispose();
  }
});
