/**
 * What conformance reads from the published contract on every side: the endpoint table's row a request is for,
 * whether an event type is the contract's, and how a value's JSON type and format are said in a report. The
 * check of a whole answer against the contract is `contract-problems.ts`, loaded with the runner.
 */
import * as z from 'zod/mini';
import { ENDPOINTS, type Endpoint, PATH_PARAM } from '../../src/endpoints/index.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';

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

/** Whether `type` is one of the contract's event types. */
export function isEventType(type: unknown): type is keyof typeof WEBHOOK_PAYLOADS {
  return typeof type === 'string' && Object.hasOwn(WEBHOOK_PAYLOADS, type);
}

/** A JSON value's type, as a reader says it. */
export function typeName(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'number (not an integer)';
  return typeof value;
}

// The two formats as the contract check reads JSON Schema's `date-time` and `date` (zod's `fromJSONSchema` uses
// these checks): a value named `date-time` here is never a format problem there.
const DATE_TIME = z.iso.datetime({ offset: true });
const DATE = z.iso.date();

/**
 * The format of a string, by what it looks like: `date-time`, `date`, `decimal` (amounts, figures), or `text`.
 * Conformance compares it where the reference's value has one of the first three.
 */
export function formatName(value: string): string {
  if (DATE_TIME.safeParse(value).success) return 'date-time';
  if (DATE.safeParse(value).success) return 'date';
  if (/^-?\d+(\.\d+)?$/.test(value)) return 'decimal';
  return 'text';
}
