/**
 * The published contract as conformance checks it: each answer against the JSON Schema of its endpoint's row in
 * the endpoint table (`src/endpoints/`, the schemas `openapi.json` is generated from) and each delivery against
 * its event type's payload (`mock/contract/webhook-payloads.ts`). A check names what the contract declares and
 * an answer breaks: a JSON type (an integer included), a format, a value outside a declared enum (the enums are
 * open, so a new value is a difference to review), a required field missing, on every item of a list.
 */
import type * as z from 'zod/mini';
import { ENDPOINTS, type Endpoint, PATH_PARAM } from '../../src/endpoints/index.js';
import { ErrorBodyA, ErrorBodyB, RateLimitErrorBody } from '../../src/schemas/common.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';
import { type Json, jsonSchema } from '../openapi/schema.js';

/** One place where a value breaks the contract. */
export interface ContractProblem {
  /** The value's path, as shapes name it (`data.transaction.status`, `data[].id`). */
  path: string;
  kind: 'type' | 'format' | 'enum' | 'required';
  /** What the contract declares, in words (`integer`, `date-time`, `one of pending, delivered`, `present`). */
  expected: string;
  /** What the value is, in words (`string`, `"on_hold"`, `absent`). */
  got: string;
  /** For a problem inside a list: on how many items, of how many. */
  items?: { count: number; of: number };
  /** For an `enum` problem: the values the contract lists there. */
  values?: readonly unknown[];
}

interface Row {
  path: string;
  method: string;
  pattern: RegExp;
  row: Endpoint;
}

// Compiled on the first lookup (a conformance run), not when the mock is imported.
let rows: Row[] | undefined;
const compileRows = (): Row[] =>
  Object.values(ENDPOINTS as Record<string, Endpoint>)
    .map((row) => ({
      path: row.path,
      method: row.method,
      pattern: new RegExp(`^${row.path.replace(PATH_PARAM, '[^/]+')}$`),
      row,
    }))
    // A fixed segment wins over a parameter (`/v2/transactions/prefunded` before `/{transactionId}`).
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));

/**
 * The endpoint of the table a request is for: its method and path; a method the path has no row for still
 * names the path's row (a 405 is compared under it).
 */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  rows ??= compileRows();
  const matching = rows.filter((r) => r.pattern.test(path));
  return (matching.find((r) => r.method === method) ?? matching[0])?.row;
}

const compiled = new WeakMap<object, Json>();
function schemaOf(schema: z.ZodMiniType): Json {
  let json = compiled.get(schema);
  if (!json) {
    json = jsonSchema(schema, 'output');
    compiled.set(schema, json);
  }
  return json;
}

/** The schema an answer of `status` to `row` is checked against, and the path its problems are named from. */
function answerSchema(
  row: Endpoint,
  status: number,
  body: unknown,
): { schema: Json; at: string; value: unknown } | undefined {
  const record = isPlainObject(body) ? body : undefined;
  if (status === 429) return { schema: schemaOf(RateLimitErrorBody), at: '', value: body };
  if (status >= 400 || record?.success === false) {
    if (status === 401) return undefined;
    return { schema: schemaOf(record?.success === false ? ErrorBodyB : ErrorBodyA), at: '', value: body };
  }
  if (row.envelope) return { schema: schemaOf(row.envelope), at: '', value: body };
  if (!record || !('data' in record)) return undefined;
  return { schema: schemaOf(row.data), at: 'data', value: record.data };
}

/** Every way the answer `body` of `status` to `METHOD path` breaks the endpoint's contract. */
export function answerProblems(
  method: string,
  path: string,
  status: number,
  body: unknown,
): ContractProblem[] {
  const row = endpointOf(method, path);
  if (!row || body === undefined || typeof body === 'string') return [];
  const found = answerSchema(row, status, body);
  return found ? problemsOf(found.schema, found.value, found.at) : [];
}

const ENVELOPE = { id: 'string', event: 'string', timestamp: 'string' } as const;

/** Every way a delivery's envelope breaks the contract of its event type's payload (spec 6.1, 6.2). */
export function deliveryProblems(envelope: unknown): ContractProblem[] {
  if (!isPlainObject(envelope))
    return [{ path: '', kind: 'type', expected: 'object', got: typeName(envelope) }];
  const out: ContractProblem[] = [];
  for (const [field, type] of Object.entries(ENVELOPE)) {
    const value = envelope[field];
    if (value === undefined) out.push({ path: field, kind: 'required', expected: 'present', got: 'absent' });
    else if (typeof value !== type)
      out.push({ path: field, kind: 'type', expected: type, got: typeName(value) });
  }
  if (typeof envelope.timestamp === 'string' && !isDateTime(envelope.timestamp))
    out.push({
      path: 'timestamp',
      kind: 'format',
      expected: 'date-time',
      got: formatName(envelope.timestamp),
    });
  const payload = WEBHOOK_PAYLOADS[String(envelope.event) as keyof typeof WEBHOOK_PAYLOADS];
  if (payload === undefined) {
    out.push({
      path: 'event',
      kind: 'enum',
      expected: 'one of the ten event types',
      got: JSON.stringify(envelope.event),
    });
    return out;
  }
  if (envelope.data === undefined)
    out.push({ path: 'data', kind: 'required', expected: 'present', got: 'absent' });
  else out.push(...problemsOf(schemaOf(payload), envelope.data, 'data'));
  return out;
}

/** Whether `type` is one of the contract's event types. */
export function isEventType(type: unknown): type is keyof typeof WEBHOOK_PAYLOADS {
  return typeof type === 'string' && Object.hasOwn(WEBHOOK_PAYLOADS, type);
}

/**
 * Of `types`, the event type whose payload in the contract `data` is nearest to: the most of its required fields
 * present (at least half of them), then the fewest problems; undefined when none is near enough to compare with.
 */
export function nearestEventType(data: unknown, types: readonly string[]): string | undefined {
  if (!isPlainObject(data)) return undefined;
  let best: { type: string; present: number; problems: number } | undefined;
  for (const type of types) {
    if (!isEventType(type)) continue;
    const schema = schemaOf(WEBHOOK_PAYLOADS[type]);
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const present = required.filter((key) => data[key] !== undefined).length;
    if (present * 2 < required.length) continue;
    const problems = problemsOf(schema, data).length;
    if (!best || present > best.present || (present === best.present && problems < best.problems))
      best = { type, present, problems };
  }
  return best?.type;
}

/** A JSON value's type, as a reader says it. */
export function typeName(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'number (not an integer)';
  return typeof value;
}

/** RFC 3339 date-time, as JSON Schema's `date-time` format and the spec's timestamps write it. */
export function isDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}

/**
 * The format of a string, by what it looks like: `date-time`, `date`, `decimal` (amounts, figures), or `text`.
 * Conformance compares it where the reference's value has one of the first three.
 */
export function formatName(value: string): string {
  if (isDateTime(value)) return 'date-time';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  if (/^-?\d+(\.\d+)?$/.test(value)) return 'decimal';
  return 'text';
}

const FORMATS: Record<string, (value: string) => boolean> = {
  'date-time': isDateTime,
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
  uri: (value) => URL.canParse(value),
};

function typesOf(schema: Json): string[] | undefined {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.map(String) : undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

/** An open enum (`anyOf` its known values and any string): its known values. */
function openEnum(schema: Json): string[] | undefined {
  const { anyOf } = schema;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const known = anyOf.find((branch) => isPlainObject(branch) && Array.isArray(branch.enum));
  const other = anyOf.find(
    (branch) => isPlainObject(branch) && branch.description === 'A value added after this document',
  );
  return isPlainObject(known) && other && Array.isArray(known.enum) ? known.enum.map(String) : undefined;
}

function listed(values: readonly unknown[]): string {
  const shown = values.slice(0, 6).map((v) => JSON.stringify(v));
  return `one of ${shown.join(', ')}${values.length > 6 ? ', …' : ''}`;
}

/** Every problem of `value` under `schema`, named from `path`; list items' problems are merged with counts. */
export function problemsOf(schema: Json, value: unknown, path = ''): ContractProblem[] {
  const out: ContractProblem[] = [];
  walk(schema, value, path, out);
  return out;
}

function walk(schema: Json, value: unknown, path: string, out: ContractProblem[]): void {
  const known = openEnum(schema);
  if (known) {
    if (typeof value !== 'string') out.push({ path, kind: 'type', expected: 'string', got: typeName(value) });
    else if (!known.includes(value))
      out.push({ path, kind: 'enum', expected: listed(known), got: JSON.stringify(value), values: known });
    return;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter(isPlainObject).map((branch) => problemsOf(branch, value, path));
    if (branches.some((problems) => problems.length === 0)) return;
    // Nullable fields are `anyOf [schema, null]`: the branch with the fewest problems says what went wrong.
    const best = branches.sort((a, b) => a.length - b.length)[0];
    if (best) out.push(...best.map((p) => withEveryBranch(p, branches)));
    return;
  }
  if ('const' in schema && value !== schema.const) {
    out.push({
      path,
      kind: 'enum',
      expected: listed([schema.const]),
      got: value === undefined ? 'absent' : JSON.stringify(value),
      values: [schema.const],
    });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    out.push({
      path,
      kind: 'enum',
      expected: listed(schema.enum),
      got: JSON.stringify(value),
      values: schema.enum,
    });
    return;
  }
  const types = typesOf(schema);
  if (types && !types.some((type) => hasType(value, type))) {
    out.push({ path, kind: 'type', expected: types.join(' or '), got: typeName(value) });
    return;
  }
  if (typeof value === 'string' && typeof schema.format === 'string') {
    const check = FORMATS[schema.format];
    if (check && !check(value))
      out.push({ path, kind: 'format', expected: schema.format, got: formatName(value) });
  }
  if (isPlainObject(value)) walkObject(schema, value, path, out);
  if (Array.isArray(value) && isPlainObject(schema.items)) walkItems(schema.items, value, path, out);
}

/**
 * An enum problem in one branch of a union says every value the union lists at that path (a union told apart
 * by `status` lists one value per branch): `one of "VERIFIED", "PENDING", …`, not the nearest branch's one.
 */
function withEveryBranch(problem: ContractProblem, branches: readonly ContractProblem[][]): ContractProblem {
  if (problem.kind !== 'enum' || !problem.values) return problem;
  const values = [
    ...new Set(
      branches.flatMap((b) =>
        b.flatMap((p) => (p.kind === 'enum' && p.path === problem.path ? (p.values ?? []) : [])),
      ),
    ),
  ];
  return { ...problem, values, expected: listed(values) };
}

function walkObject(schema: Json, value: Json, path: string, out: ContractProblem[]): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const join = (key: string) => (path === '' ? key : `${path}.${key}`);
  for (const key of Array.isArray(schema.required) ? schema.required.map(String) : []) {
    if (value[key] === undefined)
      out.push({ path: join(key), kind: 'required', expected: 'present', got: 'absent' });
  }
  for (const [key, field] of Object.entries(properties)) {
    if (value[key] !== undefined && isPlainObject(field)) walk(field, value[key], join(key), out);
  }
}

function walkItems(schema: Json, items: unknown[], path: string, out: ContractProblem[]): void {
  const merged = new Map<string, ContractProblem>();
  for (const item of items) {
    for (const problem of problemsOf(schema, item, `${path}[]`)) {
      const key = `${problem.path}\u0000${problem.kind}\u0000${problem.got}`;
      const seen = merged.get(key);
      const count = (seen?.items?.count ?? 0) + (problem.items?.count ?? 1);
      merged.set(key, { ...problem, items: { count, of: items.length } });
    }
  }
  out.push(...merged.values());
}
