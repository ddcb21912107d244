/**
 * The published contract as conformance checks it: each answer against the JSON Schema of its endpoint's row in
 * the endpoint table (`src/endpoints/`, the schemas `openapi.json` is generated from) and each delivery against
 * its event type's payload (`mock/contract/webhook-payloads.ts`), with the open enums closed to their known
 * values (a new value is a difference to review). zod reads that JSON Schema (`fromJSONSchema`) and validates;
 * its issues become the report's problems: a JSON type (an integer included), a format, a value outside a
 * declared enum, a required field missing, counted over the items of a list. zod's full build costs about 100 ms
 * to load, so it is loaded by `loadContractCheck`, the first step of a run and of `compareObservations`, and never
 * by an import of the mock (the CommonJS build would otherwise require it on import).
 */
import type { core, fromJSONSchema as FromJSONSchema, ZodType } from 'zod';
import type * as z from 'zod/mini';
import type { Endpoint } from '../../src/endpoints/index.js';
import { ErrorBodyA, ErrorBodyB, RateLimitErrorBody } from '../../src/schemas/common.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';
import { envelopeSchema, type Json, jsonSchema } from '../openapi/schema.js';
import { endpointOf, formatName, isEventType, typeName } from './contract.js';

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

/** A schema of the contract: its closed JSON Schema, and zod's validator of it. */
interface Checked {
  json: Json;
  check: ZodType;
}

let fromJSONSchema: typeof FromJSONSchema | undefined;

/** Loads zod's full build, which every check below needs; resolves at once after the first call. */
export async function loadContractCheck(): Promise<void> {
  fromJSONSchema ??= (await import('zod')).fromJSONSchema;
}

function read(json: Json): ZodType {
  if (!fromJSONSchema) throw new Error('The contract check is not loaded: await loadContractCheck() first');
  return fromJSONSchema(json);
}

// Each schema read once: by its zod schema, or by the event type of a delivery's whole body.
const compiled = new Map<unknown, Checked>();
function cached(key: unknown, make: () => Json): Checked {
  let found = compiled.get(key);
  if (!found) {
    const json = make();
    found = { json, check: read(json) };
    compiled.set(key, found);
  }
  return found;
}

const checkedOf = (schema: z.ZodMiniType) => cached(schema, () => jsonSchema(schema, 'output', 'closed'));

/** Whether `value` is one the JSON Schema `json` of the contract accepts (the probes' valid cases). */
export const accepts = (json: Json, value: unknown) =>
  cached(json, () => json).check.safeParse(value).success;

/** The schema an answer of `status` is checked against, and the path its problems are named from. */
function answerSchema(
  row: Endpoint,
  status: number,
  body: unknown,
): { schema: z.ZodMiniType; at: string; value: unknown } | undefined {
  const record = isPlainObject(body) ? body : undefined;
  if (status === 429) return { schema: RateLimitErrorBody, at: '', value: body };
  if (status >= 400 || record?.success === false) {
    if (status === 401) return undefined;
    return { schema: record?.success === false ? ErrorBodyB : ErrorBodyA, at: '', value: body };
  }
  if (row.envelope) return { schema: row.envelope, at: '', value: body };
  if (!record || !('data' in record)) return undefined;
  return { schema: row.data, at: 'data', value: record.data };
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
  return found ? problemsOf(checkedOf(found.schema), found.value, found.at) : [];
}

/** A delivery's whole body by its event type (none for a type the contract does not list: its `data` is any). */
const deliveryCheck = (type: keyof typeof WEBHOOK_PAYLOADS | undefined) =>
  cached(`delivery ${type}`, () =>
    envelopeSchema({ type: 'string' }, type === undefined ? {} : checkedOf(WEBHOOK_PAYLOADS[type]).json),
  );

/** Every way a delivery's envelope breaks the contract of its event type's payload (spec 6.1, 6.2). */
export function deliveryProblems(envelope: unknown): ContractProblem[] {
  const event = isPlainObject(envelope) ? envelope.event : undefined;
  const type = isEventType(event) ? event : undefined;
  const out = problemsOf(deliveryCheck(type), envelope);
  if (isPlainObject(envelope) && type === undefined)
    out.push({
      path: 'event',
      kind: 'enum',
      expected: 'one of the ten event types',
      got: JSON.stringify(event),
    });
  return out;
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
    const checked = checkedOf(WEBHOOK_PAYLOADS[type]);
    const required = Array.isArray(checked.json.required) ? checked.json.required.map(String) : [];
    const present = required.filter((key) => data[key] !== undefined).length;
    if (present * 2 < required.length) continue;
    const problems = problemsOf(checked, data).length;
    if (!best || present > best.present || (present === best.present && problems < best.problems))
      best = { type, present, problems };
  }
  return best?.type;
}

function problemsOf({ check }: Checked, value: unknown, at = ''): ContractProblem[] {
  const result = check.safeParse(value, { reportInput: true });
  if (result.success) return [];
  return merged(
    result.error.issues.flatMap((issue) => problemsOfIssue(issue, [])),
    value,
    at,
  );
}

type Key = PropertyKey;
/** A problem before list items are merged: its path as zod gives it, from the checked value. */
type Found = Omit<ContractProblem, 'path' | 'items'> & { at: readonly Key[] };

// zod's names of the formats and types the contract declares, in JSON Schema's words.
const FORMAT: Record<string, string> = { datetime: 'date-time', date: 'date', url: 'uri' };
const TYPE: Record<string, string> = { int: 'integer' };

function problemsOfIssue(issue: core.$ZodIssue, from: readonly Key[]): Found[] {
  const at = [...from, ...issue.path];
  const input: unknown = issue.input;
  if (input === undefined && at.length > 0)
    return [{ at, kind: 'required', expected: 'present', got: 'absent' }];
  switch (issue.code) {
    case 'invalid_type':
      return [{ at, kind: 'type', expected: TYPE[issue.expected] ?? issue.expected, got: typeName(input) }];
    case 'invalid_value':
      return [
        {
          at,
          kind: 'enum',
          expected: listed(issue.values),
          got: JSON.stringify(input),
          values: issue.values,
        },
      ];
    case 'invalid_format':
      return [
        {
          at,
          kind: 'format',
          expected: FORMAT[issue.format] ?? issue.format,
          got: typeof input === 'string' ? formatName(input) : typeName(input),
        },
      ];
    case 'invalid_union':
      return nearestBranch(
        issue.errors.map((branch) => branch.flatMap((inner) => problemsOfIssue(inner, at))),
      );
    default:
      // The contract's objects are open to fields added later (the SDK reads them leniently); the shape
      // comparison names a field one side lacks. Nothing else the contract declares raises another issue.
      return [];
  }
}

/**
 * A union's problems are its nearest branch's (nullable fields are `anyOf [schema, null]`). An enum problem there
 * says every value the union lists at that path (a union told apart by `status` lists one value per branch):
 * `one of "VERIFIED", "PENDING", …`, not the nearest branch's one.
 */
function nearestBranch(branches: readonly Found[][]): Found[] {
  const best = [...branches].sort((a, b) => a.length - b.length)[0] ?? [];
  return best.map((problem) => {
    if (problem.kind !== 'enum' || !problem.values) return problem;
    const same = (p: Found) => p.kind === 'enum' && named(p.at, '') === named(problem.at, '');
    const values = [...new Set(branches.flatMap((b) => b.filter(same).flatMap((p) => p.values ?? [])))];
    return { ...problem, values, expected: listed(values) };
  });
}

/** Problems named from `at`; one inside a list is merged across its items, with how many of them have it. */
function merged(found: readonly Found[], value: unknown, at: string): ContractProblem[] {
  const out = new Map<string, ContractProblem>();
  for (const { at: keys, ...problem } of found) {
    const path = named(keys, at);
    const key = `${path}\u0000${problem.kind}\u0000${problem.got}`;
    const list = outermostList(value, keys);
    const seen = out.get(key);
    out.set(
      key,
      list === undefined
        ? { ...problem, path }
        : { ...problem, path, items: { count: (seen?.items?.count ?? 0) + 1, of: list.length } },
    );
  }
  return [...out.values()];
}

/** A path as shapes name it: `data.transaction.status`, `data[].id`. */
function named(keys: readonly Key[], at: string): string {
  return keys.reduce<string>(
    (path, key) =>
      typeof key === 'number' ? `${path}[]` : path === '' ? String(key) : `${path}.${String(key)}`,
    at,
  );
}

/** The list the first item index of `keys` is in, if any. */
function outermostList(value: unknown, keys: readonly Key[]): unknown[] | undefined {
  let here = value;
  for (const key of keys) {
    if (typeof key === 'number') return Array.isArray(here) ? here : undefined;
    here = isPlainObject(here) ? here[String(key)] : undefined;
  }
  return undefined;
}

function listed(values: readonly unknown[]): string {
  const shown = values.slice(0, 6).map((v) => JSON.stringify(v));
  return `one of ${shown.join(', ')}${values.length > 6 ? ', …' : ''}`;
}
