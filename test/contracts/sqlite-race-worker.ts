// A separate thread with its own SQLite connection, racing the others on one record as soon as all are ready.
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts';
import { bindMachine } from './builders.ts';

declare const self: Worker;

export type RaceOp =
  | { kind: 'bind'; licenseId: string }
  | { kind: 'consume'; otpId: string }
  | { kind: 'recordAttempt'; otpId: string }
  | { kind: 'beginCharge'; purchaseId: string; cardId: string; staleBefore: number }
  | { kind: 'countTowardsLock'; customerId: string; now: number; lockAt: number; lockMs: number };

export interface RaceOrder {
  path: string;
  op: RaceOp;
  calls: number;
  /** [ready count, go flag]: every thread opens its connection first, then all race together. */
  barrier: SharedArrayBuffer;
  threads: number;
}

/** What each call returned, in a form that crosses threads: true/false for the winners, a count, or a fingerprint. */
export type RaceResult = boolean | number | string | null;

function run(store: ReturnType<typeof openSqliteStore>, op: RaceOp, i: number): Promise<RaceResult> {
  switch (op.kind) {
    case 'bind':
      // Every call brings a fingerprint of its own; each returns the one the license is bound to after it.
      return bindMachine(store, op.licenseId, `machine-${crypto.randomUUID()}`, i);
    case 'consume':
      return store.otps.consume(op.otpId, i);
    case 'recordAttempt':
      return store.otps.recordAttempt(op.otpId);
    case 'beginCharge':
      return store.purchases.beginCharge(op.purchaseId, op.cardId, op.staleBefore + i, op.staleBefore).then((r) => r.started);
    case 'countTowardsLock':
      return store.otps.countTowardsLock(op.customerId, op.now, op.lockAt, op.lockMs).then((r) => r.consecutive);
  }
}

self.onmessage = async (event: MessageEvent<RaceOrder>) => {
  const { path, op, calls, barrier, threads } = event.data;
  const store = openSqliteStore(path);
  const flags = new Int32Array(barrier);
  if (Atomics.add(flags, 0, 1) + 1 === threads) {
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);
  } else {
    Atomics.wait(flags, 1, 0);
  }
  const results = await Promise.all(Array.from({ length: calls }, (_, i) => run(store, op, i)));
  await store.close();
  self.postMessage(results);
};
