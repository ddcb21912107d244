/**
 * What changed in a state since the last save, found without reading the whole state: each keyed
 * collection (`KEYED_COLLECTIONS`) is wrapped in a proxy that notes every key read as an object, written or
 * deleted during a request; the pending timers are compared with the last saved list by identity (timers are
 * never changed in place), which finds the added and removed ones without serialising any; the rest of the
 * state (clock, counters...) is small and compared whole. `collect()` turns this into a list of changes (a
 * put of the entry's JSON, a delete, an append to an ID list, timers added and removed) whose size follows
 * the request, not the state.
 *
 * A change made to a record after an `await` must re-read the record by its key after the `await` (as the
 * webhook delivery does), so the key is noted in the turn that changes it.
 */
import { KEYED_COLLECTIONS, keyed, sliceOf } from '../core/records.js';
import type { MockState } from '../core/state.js';
import type { Timer } from '../state/timers.js';

/** One change: `p` put, `d` delete, `a` append to an ID list, `r` replace a whole collection, `x` absent. */
export type Change =
  | [collection: number, key: string, kind: 'p', value: unknown]
  | [collection: number, key: string, kind: 'd']
  | [collection: number, key: string, kind: 'a', at: number, items: unknown[]]
  | [collection: number, key: '', kind: 'r', value: Record<string, unknown>]
  | [collection: number, key: '', kind: 'x'];

/** One saved step: the changes, the timers added and removed, and the rest of the state when it changed. */
export interface Entry {
  changes: Change[];
  timers?: { add: Timer[]; remove: string[] };
  rest?: Record<string, unknown>;
  /** Items appended to a list of the rest that only grows (`APPENDED`): its path, the length before, the items. */
  appended?: [path: string, at: number, items: unknown[]][];
}

/**
 * Lists in the rest of the state that only ever grow at the end, saved as what was appended: the ledger gets
 * an entry per keyed create, and saving it whole each time would cost more as it grows.
 */
const APPENDED = [['http', 'ledger']] as const;

/** The rest of the state without the lists saved as appends: what the journal saves whole when it changes. */
function restWithoutAppended(state: MockState): Record<string, unknown> {
  const rest = restOf(state);
  for (const [slice, name] of APPENDED) {
    const copy = { ...(rest[slice] as Record<string, unknown>) };
    delete copy[name];
    rest[slice] = copy;
  }
  return rest;
}

/** Sets `list` to its first `at` items and `items` after them (an append, harmless when replayed twice). */
function appendAt(list: unknown[], at: number, items: readonly unknown[]): void {
  list.length = Math.min(list.length, at);
  // One at a time: spreading a long list into push() overflows the stack.
  for (const item of items) list.push(item);
}

/** The state without its keyed collections and timers: what is saved whole when it changes. */
export function restOf(state: MockState): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state };
  delete out.timers;
  const slices = new Map<string, Record<string, unknown>>();
  for (const [slice, collection] of KEYED_COLLECTIONS) {
    const copy = slices.get(slice) ?? { ...sliceOf(state, slice) };
    delete copy[collection];
    slices.set(slice, copy);
  }
  for (const [slice, copy] of slices) out[slice] = copy;
  return out;
}

/** The scheduling number of a timer (`tmr_12` is 12): timers due at the same time run in this order. */
function sequenceOf(timer: Timer): number {
  return Number(timer.id.slice(timer.id.indexOf('_') + 1));
}

/** Whether `a` runs before `b`: the order of `state.timers`. */
function runsBefore(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && sequenceOf(a) < sequenceOf(b));
}

/**
 * Applies saved steps to a state (loading): the same changes in the same order give the same state. Every
 * change is a last-writer-wins put, delete or positioned append, so steps replayed over a state that already
 * holds some of them (a snapshot written while they were saved) give the same state too. Call `finish()`
 * after the last step (timers are kept by ID while replaying and put back in order once).
 * @example
 * const replay = replayInto(state);
 * replay.apply(JSON.parse(line));
 * replay.finish();
 */
export function replayInto(state: MockState) {
  let timers: Map<string, Timer> | undefined;
  const finish = () => {
    if (!timers) return;
    state.timers = [...timers.values()].sort((a, b) => a.at - b.at || sequenceOf(a) - sequenceOf(b));
    timers = undefined;
  };
  return {
    apply(entry: Entry): void {
      if (entry.rest) {
        if ('timers' in entry.rest) finish(); // a journal written before timers were saved apart
        for (const [name, value] of Object.entries(entry.rest)) {
          const holder = state as unknown as Record<string, unknown>;
          const current = holder[name];
          const isSlice = KEYED_COLLECTIONS.some(([slice]) => slice === name);
          if (isSlice && current && typeof current === 'object' && value && typeof value === 'object') {
            Object.assign(current, value);
          } else {
            holder[name] = value;
          }
        }
      }
      for (const [path, at, items] of entry.appended ?? []) {
        const [slice = '', name = ''] = path.split('.');
        const holder = (state as unknown as Record<string, Record<string, unknown>>)[slice];
        if (!holder || typeof holder !== 'object') throw new Error(`no ${slice} in the state for ${path}`);
        const list = Array.isArray(holder[name]) ? (holder[name] as unknown[]) : [];
        appendAt(list, at, items);
        holder[name] = list;
      }
      if (entry.timers) {
        timers ??= new Map((Array.isArray(state.timers) ? state.timers : []).map((t) => [t.id, t]));
        for (const id of entry.timers.remove) timers.delete(id);
        for (const timer of entry.timers.add) timers.set(timer.id, timer);
      }
      for (const change of entry.changes) {
        const spec = KEYED_COLLECTIONS[change[0]];
        if (!spec) throw new Error(`unknown collection #${change[0]}`);
        const holder = sliceOf(state, spec[0]);
        if (change[2] === 'r') {
          holder[spec[1]] = keyed(change[3]);
          continue;
        }
        if (change[2] === 'x') {
          delete holder[spec[1]];
          continue;
        }
        holder[spec[1]] ??= keyed();
        const target = holder[spec[1]] as Record<string, unknown>;
        if (change[2] === 'p') target[change[1]] = change[3];
        else if (change[2] === 'd') delete target[change[1]];
        else {
          const list = Array.isArray(target[change[1]]) ? (target[change[1]] as unknown[]) : [];
          appendAt(list, change[3], change[4]);
          target[change[1]] = list;
        }
      }
    },
    finish,
  };
}

/**
 * Applies one saved step to a state (see {@link replayInto} for many).
 * @example
 * applyEntry(state, JSON.parse(line));
 */
export function applyEntry(state: MockState, entry: Entry): void {
  const replay = replayInto(state);
  replay.apply(entry);
  replay.finish();
}

/**
 * The timers added to and removed from `saved` to give `now`, both in run order, found by walking the two
 * lists side by side (timers are never changed in place, so an unchanged timer is the same object).
 */
function timerChanges(saved: readonly Timer[], now: readonly Timer[]): Entry['timers'] {
  const add: Timer[] = [];
  const remove: string[] = [];
  let i = 0;
  let j = 0;
  while (i < saved.length || j < now.length) {
    const before = saved[i];
    const after = now[j];
    if (before === after) {
      i += 1;
      j += 1;
    } else if (before && (!after || runsBefore(before, after))) {
      remove.push(before.id);
      i += 1;
    } else if (after) {
      add.push(after);
      j += 1;
    }
  }
  return add.length || remove.length ? { add, remove } : undefined;
}

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** The collection behind each tracking proxy, so a state tracked again is not wrapped twice. */
const targets = new WeakMap<object, Record<string, unknown>>();

/**
 * Watches one state for changes.
 * @example
 * const tracker = trackState(service.state);
 * const entry = tracker.collect();
 */
export function trackState(state: MockState) {
  const touched = KEYED_COLLECTIONS.map(() => new Set<string>());
  const proxies: unknown[] = KEYED_COLLECTIONS.map(() => undefined);
  // The ID lists as last saved, so a longer list is saved as an append (creating the 100,001st
  // transaction writes one ID, not 100,001).
  // Noted the first time a list is read in a round where it was not yet written (it is then as saved), so
  // tracking costs nothing for the lists no request touches.
  const lists = KEYED_COLLECTIONS.map(
    () => new Map<string, { list: unknown[]; length: number; first: unknown; last: unknown }>(),
  );
  // The JSON last saved of recently saved entries, so an entry read but not changed is not written again.
  const recent = new Map<string, string>();
  let lastRest = JSON.stringify(restWithoutAppended(state));
  const listOf = (slice: string, name: string): unknown =>
    (state as unknown as Record<string, Record<string, unknown> | undefined>)[slice]?.[name];
  // The appended lists as last saved: the same array, this long, with this last item.
  const savedLists = APPENDED.map(([slice, name]) => {
    const list = listOf(slice, name);
    return Array.isArray(list) ? { list, length: list.length, last: list.at(-1) } : undefined;
  });
  // The timers as last saved (the same objects): what `timerChanges` compares with.
  let savedTimers: Timer[] = [...state.timers];

  const wrap = (index: number, target: Record<string, unknown>) => {
    const mark = (key: string | symbol) => {
      if (typeof key === 'string') touched[index]?.add(key);
    };
    const proxy = new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (value !== null && typeof value === 'object') {
          if (Array.isArray(value) && typeof key === 'string' && !touched[index]?.has(key)) {
            const saved = lists[index];
            if (saved && !saved.has(key)) {
              saved.set(key, { list: value, length: value.length, first: value[0], last: value.at(-1) });
            }
          }
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
      defineProperty(object, key, descriptor) {
        mark(key);
        return Reflect.defineProperty(object, key, descriptor);
      },
    });
    targets.set(proxy, target);
    proxies[index] = proxy;
    return proxy;
  };

  const install = () => {
    KEYED_COLLECTIONS.forEach(([slice, collection], index) => {
      const holder = sliceOf(state, slice);
      const held = holder[collection];
      const value = (held && typeof held === 'object' && targets.get(held)) || held;
      if (!value || typeof value !== 'object') {
        proxies[index] = undefined;
        return;
      }
      holder[collection] = wrap(index, value as Record<string, unknown>);
    });
  };
  install();

  const remember = (id: string, json: string) => {
    recent.delete(id);
    recent.set(id, json);
    if (recent.size > 10_000) recent.delete(recent.keys().next().value ?? '');
  };

  return {
    state,
    /**
     * The changes since the last call as one line of JSON (an {@link Entry}), or `undefined` when nothing
     * changed; the noted keys are forgotten.
     * @example
     * const line = tracker.collect();
     */
    collect(): string | undefined {
      // Entries are written as JSON text directly: each value is serialised once.
      const parts: string[] = [];
      const change = (index: number, key: string, kind: string, ...payload: string[]) => {
        parts.push(`[${index},${JSON.stringify(key)},"${kind}"${payload.map((p) => `,${p}`).join('')}]`);
      };
      KEYED_COLLECTIONS.forEach(([slice, collection], index) => {
        const holder = sliceOf(state, slice);
        const current = holder[collection];
        const keys = touched[index] ?? new Set<string>();
        if (current !== proxies[index]) {
          // The collection object itself was replaced (or removed): save it whole, and watch the new one.
          if (current && typeof current === 'object') {
            change(index, '', 'r', JSON.stringify(current));
            holder[collection] = wrap(index, current as Record<string, unknown>);
          } else {
            change(index, '', 'x');
            proxies[index] = undefined;
          }
          lists[index]?.clear();
          keys.clear();
          return;
        }
        const target = current as Record<string, unknown>;
        for (const key of keys) {
          const id = `${index} ${key}`;
          if (!Object.hasOwn(target, key)) {
            change(index, key, 'd');
            lists[index]?.delete(key);
            recent.delete(id);
            continue;
          }
          const value = target[key];
          const saved = lists[index]?.get(key);
          if (Array.isArray(value) && (saved?.list === value || value.every(isPrimitive))) {
            // The same list object, longer, with its first and last saved items in place: an append. ID lists
            // only ever grow at the end; any other change to one replaces it or moves those items.
            const appended =
              saved !== undefined &&
              saved.list === value &&
              value.length >= saved.length &&
              value[0] === saved.first &&
              value[saved.length - 1] === saved.last;
            if (!appended) change(index, key, 'p', JSON.stringify(value));
            else if (value.length > saved.length) {
              change(index, key, 'a', String(saved.length), JSON.stringify(value.slice(saved.length)));
            }
            lists[index]?.set(key, {
              list: value,
              length: value.length,
              first: value[0],
              last: value.at(-1),
            });
            continue;
          }
          const json = JSON.stringify(value);
          if (recent.get(id) === json) continue;
          remember(id, json);
          change(index, key, 'p', json);
        }
        keys.clear();
      });
      const timers = timerChanges(savedTimers, state.timers);
      if (timers) savedTimers = [...state.timers];
      const appended: Entry['appended'] = [];
      APPENDED.forEach(([slice, name], index) => {
        const list = listOf(slice, name);
        if (!Array.isArray(list)) return;
        const saved = savedLists[index];
        const grew =
          saved?.list === list && list.length >= saved.length && list[saved.length - 1] === saved.last;
        // Anything but growth at the end (a new list) is saved whole: appended at 0.
        const at = grew ? saved.length : 0;
        if (list.length > at || !grew) appended.push([`${slice}.${name}`, at, list.slice(at)]);
        savedLists[index] = { list, length: list.length, last: list.at(-1) };
      });
      const restJson = JSON.stringify(restWithoutAppended(state));
      const restChanged = restJson !== lastRest;
      lastRest = restJson;
      if (!parts.length && !timers && !appended.length && !restChanged) return undefined;
      return `{"changes":[${parts.join(',')}]${timers ? `,"timers":${JSON.stringify(timers)}` : ''}${appended.length ? `,"appended":${JSON.stringify(appended)}` : ''}${restChanged ? `,"rest":${restJson}` : ''}}`;
    },
    /**
     * The keyed collections as they are, without the tracking proxies (reading them notes nothing): what a
     * snapshot is written from.
     * @example
     * const byId = tracker.collection(10);
     */
    collection(index: number): Record<string, unknown> | undefined {
      const proxy = proxies[index];
      return proxy && typeof proxy === 'object' ? targets.get(proxy) : undefined;
    },
  };
}

/**
 * A state tracker.
 * @example
 * let tracker: StateTracker = trackState(state);
 */
export type StateTracker = ReturnType<typeof trackState>;
