/**
 * The keyed collections of a state kept in a file, each behind one proxy that reads its entries from the file
 * when first used (all of them when listed) and notes the keys a request may change, so a save writes what
 * changed and not the whole state.
 */

/** A list as last saved: the same array, grown only at its end since, needs only its new items written. */
export type Saved = Map<string, { list: unknown[]; length: number }>;
export const grownFrom = (saved: Saved, key: string, list: unknown[]): number => {
  const was = saved.get(key);
  return was?.list === list && list.length >= was.length ? was.length : 0;
};
export const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** A keyed collection's entries in memory, the keys read or written, the keys touched since the last save. */
interface Watcher {
  target: Record<string, unknown>;
  known: Set<string>;
  touched: Set<string>;
  saved: Saved;
}
export const watchers = new WeakMap<object, Watcher>();

/**
 * `target` (null prototype) behind a proxy that reads an entry from `rows` by key when first used (all of them
 * when the keys are listed) and notes the keys a request may change: read as an object, set or deleted.
 */
export function watch(target: Record<string, unknown>, rows?: (key?: string) => Map<string, unknown>) {
  const keys = Object.keys(target);
  const watcher: Watcher = {
    target,
    known: new Set(keys),
    touched: new Set(rows ? [] : keys),
    saved: new Map(),
  };
  const adopt = (found: Map<string, unknown>) => {
    for (const [key, value] of found) {
      if (watcher.known.has(key)) continue;
      watcher.known.add(key);
      target[key] = value;
      if (Array.isArray(value)) watcher.saved.set(key, { list: value, length: value.length });
    }
  };
  // Both return true, so that a trap reads `load(key) && Reflect...`. A key not found is looked up again.
  const load = (key: string | symbol): true => {
    if (rows && typeof key === 'string' && !watcher.known.has(key)) adopt(rows(key));
    return true;
  };
  const touch = (key: string | symbol): true => {
    if (typeof key !== 'string') return true;
    watcher.touched.add(key);
    watcher.known.add(key);
    return true;
  };
  const proxy = new Proxy(target, {
    get(object, key) {
      const value = load(key) && Reflect.get(object, key);
      if (value !== null && typeof value === 'object') touch(key);
      return value;
    },
    has: (object, key) => load(key) && Reflect.has(object, key),
    getOwnPropertyDescriptor: (object, key) =>
      load(key) ? Reflect.getOwnPropertyDescriptor(object, key) : undefined,
    set: (object, key, value) => touch(key) && Reflect.set(object, key, value),
    defineProperty: (object, key, how) => touch(key) && Reflect.defineProperty(object, key, how),
    deleteProperty: (object, key) => touch(key) && Reflect.deleteProperty(object, key),
    ownKeys(object) {
      if (rows) adopt(rows());
      rows = undefined;
      return Reflect.ownKeys(object);
    },
  });
  watchers.set(proxy, watcher);
  return proxy;
}
