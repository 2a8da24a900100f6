/**
 * A base class for a cache in front of a repository: its instances answer the methods named in
 * `forwarded` by calling `inner`, and the subclass writes every other method of the port itself.
 * The subclass declares `implements` the port, so a method added to the port later fails the type
 * check until the cache either names it here (it cannot make an entry stale) or handles it (a
 * write that must drop or update an entry).
 *
 *   class CachedX extends forwarding<X>()(['findById', 'list']) implements X { ... }
 */
export function forwarding<T extends object>() {
  return <K extends keyof T & string>(forwarded: readonly K[]): new (inner: T) => Pick<T, K> =>
    class {
      constructor(inner: T) {
        for (const name of forwarded) {
          const method = inner[name];
          if (typeof method !== 'function') throw new Error(`${name} is not a method of the wrapped repository.`);
          Object.defineProperty(this, name, { value: method.bind(inner), writable: true, configurable: true });
        }
      }
    } as unknown as new (inner: T) => Pick<T, K>;
}
