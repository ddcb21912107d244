/**
 * Collections keyed by IDs that come from requests (user ids, session ids, upload keys...) are
 * null-prototype objects: `byId['__proto__']`, `byId['constructor']` and `byId['toString']` are then plain
 * unknown keys, so a lookup is an own-property lookup and an assignment can never reach
 * `Object.prototype`. They stay plain objects (not `Map`s) so the state is still JSON for snapshots and the
 * state file; `KEYED_COLLECTIONS` (keyed-collections.ts) lists them, so a restored or loaded state gets them
 * back as null-prototype objects.
 */
import { isPlainObject } from '../../src/shared/plain-object.js';

/** A collection keyed by untrusted IDs. */
export type Keyed<T> = Record<string, T>;

/** A new, empty null-prototype collection (optionally filled from `entries`' own enumerable keys). */
export function keyed<T>(entries?: Readonly<Record<string, T>>): Keyed<T> {
  const out = Object.create(null) as Keyed<T>;
  if (entries) for (const key of Object.keys(entries)) out[key] = entries[key] as T;
  return out;
}

/** The value under `key` if `record` has it as its own property (never an inherited member). */
function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `value` as a record when it is a non-array object (a parsed body, a timer's payload), else undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** The string `holder` has as its own property `name`, if it is an object that has one. */
export function stringField(holder: unknown, name: string): string | undefined {
  const object = objectOf(holder);
  const value = object ? ownValue(object, name) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** `record` without its `undefined` fields: absent, so it reads the same in-process and after a JSON round trip. */
export function defined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/** The `fields` of `record`, in that order: a wire form showing part of a stored record. */
export function pick<T extends object, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, record[field]])) as Pick<T, K>;
}
