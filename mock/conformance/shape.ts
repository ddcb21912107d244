/**
 * The JSON shape of a value: its types, the formats of its strings, an object's fields and an array's items,
 * merged over every item, so two answers compare by what they carry and never by their values (IDs, timestamps
 * and amounts differ by nature; their formats do not).
 */
import { formatName } from './contract.js';

/** A JSON type name as a reader says it. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** The shape of one value, or of every value seen at one place (an array's items). */
export interface Shape {
  /** How many values were seen here (an array's items each count). */
  count: number;
  types: Set<JsonType>;
  /** The formats of the strings seen here (`date-time`, `decimal`, `text`: {@link formatName}). */
  formats: Set<string>;
  fields: Map<string, Shape>;
  /** The merged shape of an array's items; `undefined` when no array seen here had any. */
  items: Shape | undefined;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function empty(): Shape {
  return { count: 0, types: new Set(), formats: new Set(), fields: new Map(), items: undefined };
}

/** The shape of a parsed JSON value; `undefined` (nothing there) has no type and reads `absent`. */
export function shapeOf(value: unknown): Shape {
  return value === undefined ? empty() : addTo(empty(), value);
}

function addTo(shape: Shape, value: unknown): Shape {
  const type = typeOf(value);
  shape.count += 1;
  shape.types.add(type);
  if (typeof value === 'string') shape.formats.add(formatName(value));
  if (type === 'object') {
    for (const [key, field] of Object.entries(value as Record<string, unknown>))
      if (field !== undefined) shape.fields.set(key, addTo(shape.fields.get(key) ?? empty(), field));
  } else if (type === 'array') {
    for (const item of value as unknown[]) shape.items = addTo(shape.items ?? empty(), item);
  }
  return shape;
}

/** How a shape's types read in a difference: `number`, `string or null`. */
export function describeTypes(shape: Shape | undefined): string {
  if (!shape || shape.types.size === 0) return 'absent';
  return [...shape.types].sort().join(' or ');
}

/** One place where two shapes differ: its path (`deposit.confirmations`, `[].id`) and each side's types. */
export interface ShapeDifference {
  path: string;
  /** `format` when the types agree and the strings' formats do not. */
  aspect?: 'format';
  mock: string;
  sandbox: string;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function disjoint(a: Set<string>, b: Set<string>): boolean {
  return ![...a].some((type) => b.has(type));
}

/**
 * The strings' formats where they differ and the reference's are all a format of their own (dates, amounts): a
 * reference holding free text says nothing about the target's. Inside lists only formats with none in common.
 */
function formatDifference(mock: Shape, sandbox: Shape, inList: boolean): boolean {
  if (mock.formats.size === 0 || sandbox.formats.size === 0 || mock.formats.has('text')) return false;
  const [a, b] = [[...mock.formats].sort().join(), [...sandbox.formats].sort().join()];
  return a !== b && (!inList || disjoint(mock.formats, sandbox.formats));
}

/** How a shape's string formats read in a difference: `date-time`, `decimal or text`. */
function describeFormats(shape: Shape): string {
  return [...shape.formats].sort().join(' or ');
}

/**
 * Where the two shapes differ: types, fields present on one side only, and, when both sides have items, the
 * items' shapes (an empty array says nothing about its items). A field's own fields are compared only when
 * both sides have it as an object. A list's items depend on what the account holds (a user event has no
 * `transactionId`, a pending payout a null amount), so inside arrays only what cannot be the state is named:
 * types with nothing in common, and a field every item has on one side and no item on the other.
 */
export function diffShapes(mock: Shape, sandbox: Shape, path = '', inList = false): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  const mockTypes = describeTypes(mock);
  const sandboxTypes = describeTypes(sandbox);
  if (mockTypes !== sandboxTypes && (!inList || disjoint(mock.types, sandbox.types))) {
    out.push({ path, mock: mockTypes, sandbox: sandboxTypes });
  } else if (formatDifference(mock, sandbox, inList)) {
    out.push({ path, aspect: 'format', mock: describeFormats(mock), sandbox: describeFormats(sandbox) });
  }
  if (mock.types.has('object') && sandbox.types.has('object')) {
    const keys = [...new Set([...mock.fields.keys(), ...sandbox.fields.keys()])].sort();
    for (const key of keys) {
      const a = mock.fields.get(key);
      const b = sandbox.fields.get(key);
      if (a && b) out.push(...diffShapes(a, b, join(path, key), inList));
      // A field seen on fewer objects than its parent: some items of a list have it, others not.
      else if (inList && ((a && a.count < mock.count) || (b && b.count < sandbox.count))) continue;
      else out.push({ path: join(path, key), mock: describeTypes(a), sandbox: describeTypes(b) });
    }
  }
  if (mock.items && sandbox.items) out.push(...diffShapes(mock.items, sandbox.items, `${path}[]`, true));
  return out;
}
