/**
 * A Map bounded to `capacity` entries. Eviction is "second chance" (CLOCK): a hit only sets a flag,
 * so reads never reorder the map; the oldest entry is dropped unless it was used since its last
 * chance, in which case it moves to the back once.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, { value: V; used: boolean }>();

  constructor(
    readonly capacity: number,
    private readonly onEvict: (key: K, value: V) => void = () => {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, used: false });
    while (this.entries.size > this.capacity) this.evictOne();
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Replaces the value only if the key is present. */
  replace(key: K, value: V): void {
    const entry = this.entries.get(key);
    if (entry) entry.value = value;
  }

  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
        continue;
      }
      this.onEvict(key, entry.value);
      return;
    }
  }
}
