/**
 * Declarative routes: `route(method, path, resolver, options)` is data plus a plain function; the service
 * compiles all of them into one router (`http/router.ts`) and runs each request through the shared
 * pipeline (`http/pipeline.ts`). `rawRoute` is for what is not part of the API (no key, no pipeline).
 */
import type * as z from 'zod/mini';
import type { AccountRecord } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';
import type { ErrorShape } from './errors.js';
import type { Exchange } from './exchange.js';
import type { MockResult } from './respond.js';
import type { MockRuntime } from './runtime.js';

/** Methods a route can answer; `ALL` is for the catch-all. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ALL';

/** The `:name` segments of a path as an object type, so `ctx.params.userId` is a `string`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** What a resolver gets. */
export interface RouteContext<Params = Record<string, string>, Body = unknown> {
  request: Request;
  /** The account the API key belongs to. */
  account: AccountRecord;
  /** `production` for a live key, `sandbox` for a sandbox key. */
  environment: 'sandbox' | 'production';
  params: Params;
  /** First value of each query parameter. */
  query: Record<string, string>;
  /** The body, parsed and validated by the route's `bodySchema` (undefined without one). */
  body: Body;
  /** Epoch ms on the virtual clock. */
  now: number;
  /** `now` as ISO 8601 UTC. */
  nowIso: string;
  /** The live state; resolvers change it in place. */
  state: MockState;
  /** The route's error shape, for errors thrown by shared helpers such as `requireUser`. */
  shape: ErrorShape;
  runtime: MockRuntime;
}

/**
 * A resolver: a plain function of the context. It returns a result, or a `Response` for the rare non-JSON
 * answer (never cached for idempotency), and throws `MockApiError` for errors.
 */
export type Resolver<Params = Record<string, string>, Body = unknown> = (
  ctx: RouteContext<Params, Body>,
) => MockResult | Response | Promise<MockResult | Response>;

/** Route options. */
export interface RouteOptions<Schema extends z.ZodMiniType | undefined> {
  /** Error shape of the endpoint (docs/assumptions.md); default `A`. */
  shape?: ErrorShape;
  /** Honour `Idempotency-Key`; default true for POST, PUT, PATCH and DELETE. */
  idempotent?: boolean;
  /** The shared request schema from `src/schemas/`; a failing body answers 400 in the route's shape. */
  bodySchema?: Schema;
}

/** A route with its types erased, as the pipeline stores it. */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  shape: ErrorShape;
  idempotent: boolean;
  bodySchema?: z.ZodMiniType;
  resolve: Resolver;
}

type BodyOf<Schema> = Schema extends z.ZodMiniType ? z.infer<Schema> : undefined;

/** Declares a route. `path` is relative to the service's base URL, with `:name` parameters. */
export function route<Path extends string, Schema extends z.ZodMiniType | undefined = undefined>(
  method: HttpMethod,
  path: Path,
  resolve: Resolver<PathParams<Path>, BodyOf<Schema>>,
  options: RouteOptions<Schema> = {},
): RouteDefinition {
  return {
    method,
    path,
    shape: options.shape ?? 'A',
    idempotent: options.idempotent ?? (method !== 'GET' && method !== 'ALL'),
    bodySchema: options.bodySchema,
    // The pipeline builds params from the path and the body from the schema, so the erased types hold.
    resolve: resolve as unknown as Resolver,
  };
}

/**
 * A route outside the API: no key, no shared pipeline, it answers the request itself (the object storage
 * behind presigned upload URLs). `params` are decoded; the body is read once, through `exchange`.
 */
export interface RawRouteDefinition {
  method: HttpMethod;
  path: string;
  serve: (
    request: Request,
    params: Record<string, string>,
    rt: MockRuntime,
    exchange: Exchange,
  ) => Response | Promise<Response>;
}

/** Declares a raw route (see {@link RawRouteDefinition}). */
export function rawRoute(
  method: HttpMethod,
  path: string,
  serve: RawRouteDefinition['serve'],
): RawRouteDefinition {
  return { method, path, serve };
}

/**
 * Per-service answers of single routes, keyed `METHOD path`: each gets the route's context and answers, or
 * returns nothing to let the route's own resolver answer.
 */
export type RouteOverrides = Map<
  string,
  (ctx: RouteContext) => MockResult | Response | undefined | Promise<MockResult | Response | undefined>
>;
