import { expect, test } from 'bun:test';
import { forwarding } from '../../src/adapters/store/forwarding.ts';

interface Counter {
  read(): Promise<number>;
  add(n: number): Promise<void>;
}

class StoredCounter implements Counter {
  private value = 0;
  async read() {
    return this.value;
  }
  async add(n: number) {
    this.value += n;
  }
}

class CachedCounter extends forwarding<Counter>()(['add']) implements Counter {
  reads = 0;
  constructor(private readonly inner: Counter) {
    super(inner);
  }
  async read() {
    this.reads++;
    return this.inner.read();
  }
}

// A method the cache neither forwards nor writes fails the type check (`bun run typecheck`):
// a write added to a port later cannot slip past its cache.
// @ts-expect-error Property 'read' is missing.
class ForgetfulCounter extends forwarding<Counter>()(['add']) implements Counter {}

test('a forwarded method is answered by the wrapped object, as itself', async () => {
  const stored = new StoredCounter();
  const cached = new CachedCounter(stored);

  await cached.add(2);

  expect(await stored.read()).toBe(2);
});

test("a method the wrapper writes is the wrapper's own", async () => {
  const cached = new CachedCounter(new StoredCounter());

  await cached.add(3);
  const value = await cached.read();

  expect([value, cached.reads]).toEqual([3, 1]);
});

test('a method the wrapper neither forwards nor writes does not exist on it', () => {
  const forgetful = new ForgetfulCounter(new StoredCounter()) as Partial<Counter>;
  expect([typeof forgetful.add, typeof forgetful.read]).toEqual(['function', 'undefined']);
});
