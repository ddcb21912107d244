/**
 * The shape of one row of the endpoint table: every fact of a `/v2` endpoint that the client, the mock, the
 * OpenAPI document and the docs read, so each is written once.
 */
import type * as z from 'zod/mini';

/** A `/v2` endpoint's facts. */
export interface Endpoint<
  Body extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Data extends z.ZodMiniType = z.ZodMiniType,
  Query extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to the base URL, with `{name}` path parameters as the spec writes them. */
  path: string;
  summary: string;
  /** Where the spec describes it. */
  section: string;
  /** The request body's schema. */
  body: Body;
  /** The query parameters' schema, for a GET that takes any. */
  query: Query;
  /** The schema of the success envelope's `data`. */
  data: Data;
  /** The whole success envelope's schema, for an answer with siblings of `data` (`pagination`). */
  envelope?: z.ZodMiniType;
  /** Success status; 200 unless 201 (docs/assumptions.md, "Success status codes"). */
  status: 200 | 201;
  /** The shape of its errors (spec 7.1): `A` (`error`, `message`, `code`) or `B` (`success: false`). */
  shape: 'A' | 'B';
  /** A shape A endpoint that also answers shape B (an ended document-locker session, spec 4.4). */
  alsoShapeB?: true;
  /** The error identifiers the spec (7.3, 7.4) or an assumption lists for it, beyond the common ones. */
  errors: readonly string[];
  /** `docs/assumptions.md` topics deciding what the spec does not show. */
  assumptions?: readonly string[];
  /** A create the exactly-once ledger counts: what it makes and the field of `data` that names it. */
  creates?: { kind: 'user' | 'transaction'; field: 'userId' | 'transactionId' };
}

/** The `{name}` segments of a path as an object type, so `params.userId` is a `string`. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : Record<never, string>;

type Row = Omit<Endpoint, 'body' | 'query' | 'status' | 'shape'> &
  Partial<Pick<Endpoint, 'body' | 'query' | 'status' | 'shape'>>;

type Given<R, K extends string, Fallback> = R extends { [P in K]: infer V } ? V : Fallback;

/** A row with its defaults filled, its literal types kept. */
export type Filled<R extends Row> = Omit<R, 'body' | 'query' | 'status' | 'shape'> & {
  body: Given<R, 'body', undefined>;
  query: Given<R, 'query', undefined>;
  status: Given<R, 'status', 200>;
  shape: Given<R, 'shape', 'A'>;
};

/** Fills a row's defaults: no body or query, status 200, shape A. */
export function endpoint<const R extends Row>(row: R): Filled<R> {
  // A spread over a generic types as an intersection, which would make an overridden default `never`.
  return { status: 200, shape: 'A', body: undefined, query: undefined, ...row } as unknown as Filled<R>;
}
