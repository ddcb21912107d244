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
class Watcher {
  readonly known: Set<string>;
  readonly touched: Set<string>;
  readonly saved: Saved = new Map();
  constructor(
    readonly target: Record<string, unknown>,
    keys: readonly string[],
    loaded: boolean,
  ) {
    this.known = new Set(keys);
    this.touched = new Set(loaded ? keys : []);
  }
}

// The proxy answers its own watcher under this key; no entry can have it (entries are named by strings).
const WATCHER = Symbol('watcher');

/** The watcher of a collection `watch` returned, or undefined for any other value. */
export function watcherOf(value: unknown): Watcher | undefined {
  const found: unknown =
    value !== null && typeof value === 'object' ? Reflect.get(value, WATCHER) : undefined;
  return found instanceof Watcher ? found : undefined;
}

/**
 * `target` (null prototype) behind a proxy that reads an entry from `rows` by key when first used (all of them
 * when the keys are listed) and notes the keys a request may change: read as an object, set or deleted.
 */
export function watch(target: Record<string, unknown>, rows?: (key?: string) => Map<string, unknown>) {
  const watcher = new Watcher(target, Object.keys(target), rows === undefined);
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
      if (key === WATCHER) return watcher;
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
  return proxy;
}
