/**
 * What changed in a state since the last save, found without reading the whole state: each keyed collection
 * (`KEYED_COLLECTIONS`) is wrapped in a proxy that notes every key read as an object, written or deleted
 * during a request; the rest of the state (clock, counters, pending timers...) is small and compared whole,
 * a top-level name at a time. `collect()` turns this into rows to write, whose number follows the request, not
 * the state. A list of IDs that only grew (an account's transactions) is saved as the items appended.
 *
 * A change made to a record after an `await` must re-read the record by its key after the `await` (as the
 * webhook delivery does), so the key is noted in the turn that changes it.
 */
import { KEYED_COLLECTIONS, sliceOf } from '../core/records.js';
import type { MockState } from '../core/state.js';
import type { Timer } from '../state/timers.js';

/** The collection the pending timers are saved in, a row per timer (never changed in place) by ID. */
export const TIMERS = 'timers';

/** Lists of the rest of the state that only grow at the end (the ledger: an entry per keyed create). */
export const GROWING_LISTS = [['http', 'ledger']] as const;

/** The name a keyed collection or growing list is saved under: `users.byId`. */
export const collectionName = (slice: string, name: string): string => `${slice}.${name}`;

/**
 * Rows to write: collections emptied first (replaced whole), entries put (`json`) or deleted (`undefined`), list
 * items from position `at` on (the ones after are dropped), the rest of the state by top-level name.
 */
export interface Changes {
  cleared: string[];
  entries: [collection: string, key: string, json: string | undefined][];
  lists: [collection: string, key: string, at: number, items: string[]][];
  rest: [name: string, json: string][];
}

/**
 * The state by top-level name, its keyed collections and growing lists left empty (`{}`, `[]`: their rows
 * are saved apart; an absent one stays absent): what is saved whole when it changes.
 */
export function restOf(state: MockState): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state, timers: [] };
  for (const [slice, name] of [...KEYED_COLLECTIONS, ...GROWING_LISTS]) {
    const copy = { ...(out[slice] as Record<string, unknown>) };
    if (Object.hasOwn(copy, name)) copy[name] = Array.isArray(copy[name]) ? [] : {};
    out[slice] = copy;
  }
  return out;
}

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** A list as last saved: the same array, this long, with these first and last items. */
interface SavedList {
  list: unknown[];
  length: number;
  first: unknown;
  last: unknown;
}
const savedList = (list: unknown[]): SavedList => ({
  list,
  length: list.length,
  first: list[0],
  last: list.at(-1),
});
/** Whether `list` is `saved`'s array, grown only at its end. */
const grew = (list: unknown[], saved: SavedList | undefined): saved is SavedList =>
  saved?.list === list &&
  list.length >= saved.length &&
  list[0] === saved.first &&
  list[saved.length - 1] === saved.last;

/** The collection behind each tracking proxy, so a state tracked again is not wrapped twice. */
const targets = new WeakMap<object, Record<string, unknown>>();

/**
 * Watches one state for changes; with `everything`, the first `collect()` returns the whole state.
 * @example
 * const tracker = trackState(service.state);
 * const changes = tracker.collect();
 */
export function trackState(state: MockState, { everything = false } = {}) {
  const touched = KEYED_COLLECTIONS.map(() => new Set<string>());
  // The ID lists as last saved, noted the first time a list is read in a round where it was not yet written
  // (it is then as saved), so creating the 100,001st transaction writes one ID, not 100,001.
  const lists = KEYED_COLLECTIONS.map(() => new Map<string, SavedList>());
  // The JSON last saved of recently saved entries, so an entry read but not changed is not written again.
  const recent = new Map<string, string>();
  const lastRest = new Map<string, string>();
  const growing: (SavedList | undefined)[] = GROWING_LISTS.map(() => undefined);
  const proxies: unknown[] = [];
  let savedTimers = new Set<Timer>(everything ? [] : state.timers);

  const wrap = (index: number, target: Record<string, unknown>) => {
    const keys = touched[index] ?? new Set<string>();
    const mark = (key: string | symbol) => typeof key === 'string' && keys.add(key);
    const proxy = new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (value !== null && typeof value === 'object') {
          if (Array.isArray(value) && typeof key === 'string' && !keys.has(key) && !lists[index]?.has(key))
            lists[index]?.set(key, savedList(value));
          mark(key);
        }
        return value;
      },
      set(object, key, value) {
        mark(key);
        return Reflect.set(object, key, value);
      },
      deleteProperty(object, key) {
        mark(key);
        return Reflect.deleteProperty(object, key);
      },
      defineProperty(object, key, how) {
        mark(key);
        return Reflect.defineProperty(object, key, how);
      },
    });
    targets.set(proxy, target);
    proxies[index] = proxy;
    return proxy;
  };
  KEYED_COLLECTIONS.forEach(([slice, collection], index) => {
    const holder = sliceOf(state, slice);
    const held = holder[collection];
    if (!held || typeof held !== 'object') return;
    const target = targets.get(held) ?? (held as Record<string, unknown>);
    holder[collection] = wrap(index, target);
    if (everything) for (const key of Object.keys(target)) touched[index]?.add(key);
  });

  return {
    state,
    /**
     * The changes since the last call (`undefined` when nothing changed); the noted keys are forgotten.
     * @example
     * const changes = tracker.collect();
     */
    collect(): Changes | undefined {
      const out: Changes = { cleared: [], entries: [], lists: [], rest: [] };
      const putList = (collection: string, key: string, list: unknown[], saved: SavedList | undefined) => {
        const at = grew(list, saved) ? saved.length : 0;
        if (list.length > at || at === 0) {
          out.lists.push([collection, key, at, list.slice(at).map((item) => JSON.stringify(item))]);
        }
      };
      KEYED_COLLECTIONS.forEach(([slice, collection], index) => {
        const name = collectionName(slice, collection);
        const current = sliceOf(state, slice)[collection];
        const keys = touched[index] ?? new Set<string>();
        if (current !== proxies[index]) {
          // The collection object itself was replaced (or removed): saved whole, and watched from now on.
          out.cleared.push(name);
          const target = current && typeof current === 'object' ? (current as Record<string, unknown>) : {};
          if (current && typeof current === 'object') wrap(index, target);
          else proxies[index] = undefined;
          lists[index]?.clear();
          for (const key of Object.keys(target)) keys.add(key);
          if (current) sliceOf(state, slice)[collection] = proxies[index];
        }
        const proxy = proxies[index];
        const target = (proxy && typeof proxy === 'object' && targets.get(proxy)) || {};
        for (const key of keys) {
          const id = `${index} ${key}`;
          const value = (target as Record<string, unknown>)[key];
          const saved = lists[index]?.get(key);
          recent.delete(id);
          if (!Object.hasOwn(target, key)) {
            out.entries.push([name, key, undefined]);
            lists[index]?.delete(key);
          } else if (Array.isArray(value) && (saved?.list === value || value.every(isPrimitive))) {
            if (!grew(value, saved)) out.entries.push([name, key, '[]']);
            putList(name, key, value, saved);
            lists[index]?.set(key, savedList(value));
          } else {
            const json = JSON.stringify(value);
            if (recent.get(id) !== json) out.entries.push([name, key, json]);
            recent.set(id, json);
            if (recent.size > 10_000) recent.delete(recent.keys().next().value ?? '');
          }
        }
        keys.clear();
      });
      GROWING_LISTS.forEach(([slice, name], index) => {
        const list = (state as unknown as Record<string, Record<string, unknown>>)[slice]?.[name];
        if (!Array.isArray(list)) return;
        const saved = growing[index];
        if (!grew(list, saved)) out.entries.push([collectionName(slice, name), '', '[]']);
        putList(collectionName(slice, name), '', list, saved);
        growing[index] = savedList(list);
      });
      // Found by identity: a timer is replaced, never changed in place.
      const timers = new Set(state.timers);
      for (const timer of savedTimers)
        if (!timers.has(timer)) out.entries.push([TIMERS, timer.id, undefined]);
      for (const timer of timers) {
        if (!savedTimers.has(timer)) out.entries.push([TIMERS, timer.id, JSON.stringify(timer)]);
      }
      savedTimers = timers;
      for (const [name, value] of Object.entries(restOf(state))) {
        const json = JSON.stringify(value);
        if (lastRest.get(name) !== json) out.rest.push([name, json]);
        lastRest.set(name, json);
      }
      const { cleared, entries, lists: items, rest } = out;
      return cleared.length || entries.length || items.length || rest.length ? out : undefined;
    },
  };
}

/**
 * A state tracker.
 * @example
 * let tracker: StateTracker = trackState(state);
 */
export type StateTracker = ReturnType<typeof trackState>;
