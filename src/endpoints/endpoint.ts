// One row of the endpoint table: every fact of a `/v2` endpoint, written once. Under one operation ID, the call
// (what the client sends and reads) and the contract (what the mock and the OpenAPI document add) are two
// objects, so the client's bundle carries the calls only (the contract would add 1.3 KB min+gzip).
import type * as z from 'zod/mini';

/** A `/v2` endpoint's call: what the client sends and reads, and the mock parses and answers. */
export interface Endpoint<
  Body extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Data extends z.ZodMiniType = z.ZodMiniType,
  Query extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to the base URL, with `{name}` path parameters as the spec writes them. */
  path: string;
  /** The request body's schema, if it takes one. */
  body?: Body;
  /** The query parameters' schema, for a GET that takes any. */
  query?: Query;
  /** The schema of the success envelope's `data`. */
  data: Data;
  /** The whole success envelope's schema, for an answer with siblings of `data` (`pagination`). */
  envelope?: z.ZodMiniType;
  /** Success status when not 200 (docs/assumptions.md, "Success status codes"). */
  status?: 201;
  /** Its errors take shape B (`success: false`, spec 7.1) rather than A (`error`, `message`, `code`). */
  shape?: 'B';
}

/**
 * A contract's error list from shared lists and its own codes, called with a pure annotation: a spread in the
 * table's literal would keep the whole table in a client bundle, which never reads it.
 */
export const errorCodes = (...codes: ReadonlyArray<string | readonly string[]>): string[] => codes.flat();

/** A `/v2` endpoint's contract: what the mock, its ledger and the OpenAPI document read beside the call. */
export interface EndpointContract {
  summary: string;
  /** Where the spec describes it. */
  section: string;
  /** The error identifiers the spec (7.3, 7.4) or an assumption lists for it, beyond the common ones. */
  errors: readonly string[];
  /** `docs/assumptions.md` topics deciding what the spec does not show. */
  assumptions?: readonly string[];
  /** A shape A endpoint that also answers shape B (an ended document-locker session, spec 4.4). */
  alsoShapeB?: true;
  /** A create the exactly-once ledger counts: what it makes and the field of `data` that names it. */
  creates?: { kind: 'user' | 'transaction'; field: 'userId' | 'transactionId' };
}

/** The `{name}` segments of a path as an object type, so `params.userId` is a `string`. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : Record<never, string>;

/** A `{name}` parameter of a row's path, its name captured (global: for `replace` and `matchAll`). */
export const PATH_PARAM = /\{(\w+)\}/g;

/** A path in the `:name` form routers and reports write: `/v2/users/{userId}` is `/v2/users/:userId`. */
export const colonPath = (path: string): string => path.replace(PATH_PARAM, ':$1');

/** A row as reports name it: `GET /v2/users/:userId`. */
export const endpointLabel = (row: Pick<Endpoint, 'method' | 'path'>): string =>
  `${row.method} ${colonPath(row.path)}`;
