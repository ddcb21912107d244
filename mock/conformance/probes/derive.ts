/**
 * The boundary cases of one field, read from its JSON Schema in the published contract: a required field left
 * out, the wrong JSON type, lengths and numeric bounds at n-1, n and n+1, each enum value and one outside, the
 * formats (`uri`, `date`) and patterns with near misses (lowercase, one character fewer or more, a digit for a
 * letter...), decimal strings at their bounds and in their near forms, and the conditional rules (`if`/`then`).
 * A case changes one field of a valid base request; its value is made from the base's (a fresh mobile number
 * stays fresh), so the same cases are made on both sides and in every run of a seed.
 */
import { isPlainObject } from '../../../src/shared/plain-object.js';
import type { SchemaNode } from './contract.js';

/** The value a case gives its field: a new value, or the field left out. */
export const LEFT_OUT = Symbol('left out');

/** One change to a field: what it probes, in words, and the field's new value made from its base value. */
export interface FieldChange {
  /** `accountNumber, 8 digits`. */
  rule: string;
  /** The changes to the request (one field, or two for a conditional rule). */
  apply(request: Record<string, unknown>): void;
}

function assign(request: Record<string, unknown>, field: string, next: unknown): void {
  if (next === LEFT_OUT) delete request[field];
  else request[field] = next;
}

/** The change named `<field>, <rule>`: the field's new value, made from its base value. */
const change = (field: string, rule: string, value: (base: unknown) => unknown): FieldChange => ({
  rule: `${field}, ${rule}`,
  apply: (request) => assign(request, field, value(request[field])),
});

const text = (value: unknown) => (typeof value === 'string' ? value : String(value ?? ''));

/** A value as a rule names it: short strings quoted, long ones by their length. */
function shown(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return value.length <= 24 ? JSON.stringify(value) : `${value.length} characters`;
}

/** The `{m,n}` (or `{m}`) of a pattern that is one character class repeated, with the character it repeats. */
function repeated(pattern: string): { unit: string; min: number; max: number; noun: string } | undefined {
  const found = /^\^(\\d|\[[^\]]+\])\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern);
  if (!found) return undefined;
  const [, unit = '', min = '0', max] = found;
  return {
    unit: unit === '\\d' ? '1' : 'a',
    min: Number(min),
    max: Number(max ?? min),
    noun: unit === '\\d' ? 'digits' : 'characters',
  };
}

/** The same character's other class: a digit for a letter, a letter for a digit. */
const swapped = (char: string) => (/\d/.test(char) ? 'A' : '1');

/**
 * Where a pattern of fixed-length parts (`^[A-Z]{4}0[A-Z0-9]{6}$`: an IFSC) starts each part inside the value, and
 * whether that part is a literal (`0`); undefined for a pattern with a part of variable length.
 */
function fixedParts(pattern: string): { at: number; literal: boolean }[] | undefined {
  const body = /^\^(.*)\$$/.exec(pattern)?.[1];
  if (body === undefined) return undefined;
  const matches = [...body.matchAll(/(\\.|\[[^\]]+\]|[^\\[{}()|*+?.])(?:\{(\d+)\})?/gy)];
  // Anything the parts do not spell out is of variable length (`+`, `{m,n}`, a group).
  if (matches.map((m) => m[0]).join('') !== body) return undefined;
  let at = 0;
  const parts = matches.map(([, unit = '', count]) => {
    const part = { at, literal: !unit.startsWith('[') && !/^\\[dDwWsS]$/.test(unit) };
    at += Number(count ?? 1);
    return part;
  });
  // The first and the last character have near misses of their own.
  return parts.slice(1).filter((part) => part.at !== at - 1);
}

/** A different character of the same kind: another digit for a digit, another letter for a letter. */
const other = (char: string) =>
  /\d/.test(char) ? String((Number(char) + 1) % 10) : char === 'B' ? 'C' : 'B';

/** Near misses of a pattern's valid value, each labelled; the contract's own regex says which it accepts. */
function patternChanges(field: string, pattern: string): FieldChange[] {
  const lengths = repeated(pattern);
  if (lengths) {
    const { unit, min, max, noun } = lengths;
    const sizes = [...new Set([min - 1, min, max, max + 1])].filter((n) => n >= 1);
    return sizes.map((n) => change(field, `${n} ${noun}`, () => unit.repeat(n)));
  }
  const near: [string, (v: string) => string][] = [
    ['lowercase', (v) => v.toLowerCase()],
    ['uppercase', (v) => v.toUpperCase()],
    ['one character fewer', (v) => v.slice(0, -1)],
    ['one character more', (v) => `${v}${v.at(-1) ?? 'a'}`],
    ['first character of the other kind', (v) => `${swapped(v[0] ?? 'a')}${v.slice(1)}`],
    ['last character of the other kind', (v) => `${v.slice(0, -1)}${swapped(v.at(-1) ?? 'a')}`],
    ['without its @', (v) => v.replace('@', '')],
    ['with a space inside', (v) => `${v.slice(0, 2)} ${v.slice(2)}`],
  ];
  // Each part of a fixed-length pattern at its first character: of the other kind, or another literal.
  for (const { at, literal } of fixedParts(pattern) ?? []) {
    const nth = `${at + 1}${at === 0 ? 'st' : at === 1 ? 'nd' : at === 2 ? 'rd' : 'th'}`;
    near.push([
      literal ? `its ${nth} character another` : `its ${nth} character of the other kind`,
      (v) => `${v.slice(0, at)}${literal ? other(v[at] ?? '0') : swapped(v[at] ?? 'a')}${v.slice(at + 1)}`,
    ]);
  }
  // A near miss that leaves the value as it was (an @ it has not) is still sent: the base's own answer.
  return near.map(([rule, miss]) => change(field, rule, (v) => miss(text(v))));
}

/** A number's step at a bound: 1 for an integer, else a hundredth of the bound's last decimal place. */
function stepOf(bound: number, integer: boolean): number {
  if (integer) return 1;
  const decimals = (String(bound).split('.')[1] ?? '').length;
  return 10 ** -(decimals + 2);
}

const round = (n: number) => Number(n.toPrecision(12));

function numberChanges(field: string, node: SchemaNode, query: boolean): FieldChange[] {
  const integer = node.type === 'integer';
  const as = (n: number) => () => (query ? String(n) : n);
  const values: number[] = [];
  const { minimum: min, maximum: max } = node;
  if (typeof min === 'number') values.push(round(min - stepOf(min, integer)), min);
  if (typeof max === 'number') values.push(max, round(max + stepOf(max, integer)));
  const out = values.map((n) => change(field, String(n), as(n)));
  if (integer) out.push(change(field, '1.5 (not an integer)', as(1.5)));
  return out;
}

/** Decimal strings (`x-decimal-minimum`, `x-decimal-maximum`): the bounds at a cent either side, and near forms. */
function decimalChanges(field: string, node: SchemaNode): FieldChange[] {
  const cent = (value: string, by: number) => (Number(value) + by).toFixed(2);
  const min = node['x-decimal-minimum'];
  const max = node['x-decimal-maximum'];
  const bounds = [
    ...(typeof min === 'string' ? [cent(min, -0.01), min] : []),
    ...(typeof max === 'string' ? [max, cent(max, 0.01)] : []),
  ];
  const forms: [string, (v: string) => string][] = [
    ['with 2 decimals', (v) => `${v}.25`],
    ['with 6 decimals', (v) => `${v}.123456`],
    ['ending in a point', (v) => `${v}.`],
    ['negative', (v) => `-${v}`],
    ['with an exponent', (v) => `${v}e0`],
    ['with a decimal comma', (v) => `${v},50`],
  ];
  return [
    ...bounds.map((v) => change(field, `"${v}"`, () => v)),
    ...forms.map(([rule, form]) => change(field, rule, (v) => form(text(v)))),
  ];
}

const FORMATS: Record<string, [string, string][]> = {
  uri: [
    ['https URL', 'https://example.com/kyc-done'],
    ['without a scheme', 'example.com/kyc-done'],
    ['a relative path', '/kyc-done'],
    ['not a URL', 'not a url'],
  ],
  date: [
    ['a calendar date', '1990-12-31'],
    ['February 30', '1988-02-30'],
    ['day first', '04/05/1988'],
    ['a date-time', '1988-05-04T00:00:00Z'],
  ],
};

function stringChanges(field: string, node: SchemaNode): FieldChange[] {
  if (Array.isArray(node.enum)) {
    const first = text(node.enum[0]);
    const outside = first.toUpperCase() === first ? first.toLowerCase() : first.toUpperCase();
    return [
      ...node.enum.map((value: unknown) => change(field, shown(value), () => value)),
      change(field, `${shown(outside)} (not listed)`, () => outside),
    ];
  }
  const out: FieldChange[] = [];
  if (typeof node.format === 'string')
    for (const [rule, value] of FORMATS[node.format] ?? []) out.push(change(field, rule, () => value));
  if (typeof node.pattern === 'string') out.push(...patternChanges(field, node.pattern));
  if (node['x-decimal-minimum'] !== undefined || node['x-decimal-maximum'] !== undefined)
    out.push(...decimalChanges(field, node));
  const { minLength, maxLength } = node;
  if (typeof minLength === 'number')
    for (const n of [minLength - 1, minLength].filter((n) => n >= 0))
      out.push(change(field, n === 0 ? 'empty' : `${n} character${n === 1 ? '' : 's'}`, () => 'a'.repeat(n)));
  if (typeof maxLength === 'number')
    for (const n of [maxLength, maxLength + 1])
      out.push(change(field, `${n} characters`, () => 'a'.repeat(n)));
  return out;
}

/** The wrong JSON type for a field of `type`: a number for a string, a string for anything else. */
function wrongType(field: string, node: SchemaNode, query: boolean): FieldChange | undefined {
  if (query) return node.type === 'string' ? undefined : change(field, '"abc"', () => 'abc');
  if (node.type === 'string') return change(field, 'a number', () => 42);
  return change(field, 'a string', node.type === 'object' ? () => 'abc' : (v) => String(v));
}

/** Every boundary case of one field. */
export function fieldChanges(
  field: string,
  node: SchemaNode,
  required: boolean,
  query = false,
): FieldChange[] {
  const out: FieldChange[] = [];
  if (required) out.push(change(field, 'left out', () => LEFT_OUT));
  const typed = wrongType(field, node, query);
  if (typed) out.push(typed);
  if (node.type === 'string') out.push(...stringChanges(field, node));
  if (node.type === 'number' || node.type === 'integer') out.push(...numberChanges(field, node, query));
  if (node.type === 'boolean') {
    if (node.const !== undefined) out.push(change(field, String(!node.const), () => !node.const));
    else out.push(change(field, 'the other value', (v) => !v));
  }
  return out;
}

/**
 * The conditional rules of an object's schema (`if` a field has a value, `then` others are required or
 * patterned): the condition met without them, with a blank value, and with a valid one.
 */
export function conditionalChanges(schema: SchemaNode): FieldChange[] {
  const { if: when, then } = schema;
  if (!isPlainObject(when) || !isPlainObject(then) || !isPlainObject(when.properties)) return [];
  const [[field, condition] = []] = Object.entries(when.properties);
  if (typeof field !== 'string' || !isPlainObject(condition) || condition.const === undefined) return [];
  const value = condition.const;
  const needed = Array.isArray(then.required) ? then.required.map(String) : [];
  const cond = `${field} ${shown(value)}`;
  const ways = [
    ['left out', LEFT_OUT],
    ['blank', '   '],
    ['given', 'Pilot'],
  ] as const;
  return needed.flatMap((other) =>
    ways.map(([way, given]) => ({
      rule: `${cond}, ${other} ${way}`,
      apply: (r: Record<string, unknown>) => {
        r[field] = value;
        assign(r, other, given);
      },
    })),
  );
}
