/**
 * A base class whose instances answer every method of `inner` by calling `inner`, except the
 * methods the subclass writes itself: a cache lists only what it caches or must see, not the
 * whole port. A write added to the port later is forwarded as is, so a cache that must hear of
 * it (to drop or update an entry) has to list it.
 */
export function Forwarding<T extends object>(): new (inner: T) => T {
  return class {
    constructor(inner: T) {
      for (const name of methodNames(inner)) {
        if (name in this) continue; // the subclass's own
        const method = (inner as Record<string, (...args: unknown[]) => unknown>)[name]!;
        Object.defineProperty(this, name, { value: method.bind(inner), writable: true, configurable: true });
      }
    }
  } as new (inner: T) => T;
}

/** The function-valued properties of an object and its prototypes, up to Object's. */
function methodNames(object: object): Set<string> {
  const names = new Set<string>();
  for (let at: object | null = object; at && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    for (const name of Object.getOwnPropertyNames(at)) {
      if (name !== 'constructor' && typeof (object as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return names;
}
