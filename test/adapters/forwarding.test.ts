import { expect, test } from 'bun:test';
import { Forwarding } from '../../src/adapters/cache/forwarding.ts';

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

class CachedCounter extends Forwarding<Counter>() {
  reads = 0;
  constructor(private readonly inner: Counter) {
    super(inner);
  }
  override async read() {
    this.reads++;
    return this.inner.read();
  }
}

test('a method the wrapper does not write is answered by the wrapped object, as itself', async () => {
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
