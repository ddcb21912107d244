/**
 * Collections keyed by IDs that come from requests (user ids, session ids, upload keys...) are
 * null-prototype objects: `byId['__proto__']`, `byId['constructor']` and `byId['toString']` are then plain
 * unknown keys, so a lookup is an own-property lookup and an assignment can never reach
 * `Object.prototype`. They stay plain objects (not `Map`s) so the state is still JSON for snapshots and the
 * state file; `KEYED_COLLECTIONS` lists them, so a restored or loaded state gets them back as
 * null-prototype objects.
 */
import type { MockState } from './mock-state.js';

/**
 * A collection keyed by untrusted IDs.
 * @example
 * const byId: Keyed<UserRecord> = keyed();
 */
export type Keyed<T> = Record<string, T>;

/**
 * A new, empty null-prototype collection (optionally filled from `entries`' own enumerable keys).
 * @example
 * const byId = keyed<UserRecord>();
 * byId.__proto__; // undefined: an unknown key, not Object.prototype
 */
export function keyed<T>(entries?: Readonly<Record<string, T>>): Keyed<T> {
  const out = Object.create(null) as Keyed<T>;
  if (entries) for (const key of Object.keys(entries)) out[key] = entries[key] as T;
  return out;
}

/**
 * The value under `key` if `record` has it as its own property (never an inherited member).
 * @example
 * ownValue({}, 'constructor'); // undefined
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * `value` as a record when it is a non-array object (a parsed body, a timer's payload), else undefined.
 * @example
 * objectOf(JSON.parse(text))?.data;
 */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The string `holder` has as its own property `name`, if it is an object that has one.
 * @example
 * stringField(timer.payload, 'transactionId'); // 'txn_…' or undefined
 */
export function stringField(holder: unknown, name: string): string | undefined {
  const object = objectOf(holder);
  const value = object ? ownValue(object, name) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Every collection of the state keyed by IDs, as `[slice, collection]`. A domain adding such a collection
 * lists it here, which gives it the null prototype on restore and per-entry saving in the state file.
 * @example
 * for (const [slice, collection] of KEYED_COLLECTIONS) console.log(`${slice}.${collection}`);
 */
export const KEYED_COLLECTIONS = [
  ['accounts', 'byId'],
  ['users', 'byId'],
  ['users', 'idByMobile'],
  ['verification', 'otps'],
  ['kyc', 'byUserId'],
  ['kyc', 'digilockerSessions'],
  ['kyc', 'faceSessions'],
  ['kyc', 'aadhaarOtps'],
  ['kyc', 'uploads'],
  ['kyc', 'nextOutcomes'],
  ['transactions', 'byId'],
  ['transactions', 'idByPartnerReference'],
  ['transactions', 'idsByAccount'],
  ['transactions', 'activeByUser'],
  ['transactions', 'tranchesByAccount'],
  ['transactions', 'outstandingUsdByAccount'],
  ['transactions', 'volumeByAccount'],
  ['webhooks', 'byId'],
  ['webhooks', 'idsByAccount'],
  ['webhooks', 'countsByAccount'],
  ['http', 'idempotency'],
  ['http', 'rateWindows'],
] as const;

/** A slice of the state that holds keyed collections. */
export type KeyedSlice = (typeof KEYED_COLLECTIONS)[number][0];

/**
 * The slice object of `state` by name, as a plain record (for code that walks the collections).
 * @example
 * const users = sliceOf(state, 'users');
 */
export function sliceOf(state: MockState, slice: KeyedSlice): Record<string, unknown> {
  return state[slice] as unknown as Record<string, unknown>;
}

/**
 * Gives every keyed collection of `state` a null prototype, in place (a collection that is absent stays
 * absent: the webhook index is rebuilt when missing). Used on a state parsed from JSON.
 * @example
 * const state = withKeyedCollections(JSON.parse(text));
 */
export function withKeyedCollections(state: MockState): MockState {
  for (const [slice, collection] of KEYED_COLLECTIONS) {
    const holder = sliceOf(state, slice);
    if (!holder || typeof holder !== 'object') continue; // reported by the state schema
    const value = holder[collection];
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) !== null) {
      holder[collection] = keyed(value as Record<string, unknown>);
    }
  }
  return state;
}

/**
 * A deep copy of a state as JSON would carry it, keyed collections included as null-prototype objects.
 * @example
 * const copy = cloneState(runtime.state);
 */
export function cloneState(state: MockState): MockState {
  return withKeyedCollections(JSON.parse(JSON.stringify(state)) as MockState);
}
