/**
 * What conformance reads from the published contract on every side: the endpoint table's row a request is for,
 * whether an event type is the contract's, and how a value's JSON type and format are said in a report. The
 * check of a whole answer against the contract is `contract-problems.ts`, loaded with the runner.
 */
import * as z from 'zod/mini';
import { colonPath, type Endpoint } from '../../src/endpoints/index.js';
import { WEBHOOK_PAYLOADS } from '../contract/webhook-payloads.js';
import { serviceRouter } from '../service.js';

/** The table's row a route of the service's router carries, for `method` and `path`. */
function rowOf(method: string, path: string): Endpoint | undefined {
  const found = serviceRouter().find(method, path);
  return found && !found.fallback && found.endpoint.kind === 'api' ? found.endpoint.def.endpoint : undefined;
}

/**
 * The endpoint of the table a request is for, found by the one router the service compiles from the table's
 * paths; a method the path has no row for still names the path's row (a 405 is compared under it).
 */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  const row = rowOf(method, path);
  if (row) return row;
  for (const other of serviceRouter().allowed(path)) {
    const found = rowOf(other, path);
    if (found) return found;
  }
  return undefined;
}

/**
 * The endpoint a request's path matches, with its parameters named (`/v2/users/:userId/kyc/status`); a path no
 * endpoint of the table has keeps its first segment only, since the rest names the run's own data.
 */
export function pathTemplate(method: string, path: string): string {
  const found = endpointOf(method, path);
  if (found) return colonPath(found.path);
  const first = /^\/[^/]*/.exec(path)?.[0] ?? path;
  return first === path ? path : `${first}/…`;
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
