/**
 * Declarative routes: `route(ENDPOINTS['users.create'], resolver)` is a row of the endpoint table
 * (`src/endpoints/`) plus a plain function; the row gives the method, path, body schema, error shape, success
 * status and idempotency. The service compiles every route into one router (`http/router.ts`) and runs each
 * request through the shared pipeline (`http/pipeline.ts`). `rawRoute` is for what is not part of the API (no
 * key, no pipeline), `catchAllRoute` for the API's answer to a path no row names.
 */
import type * as z from 'zod/mini';
import { colonPath } from '../../src/endpoints/endpoint.js';
import { ENDPOINTS, type Endpoint, type OperationId, type PathParams } from '../../src/endpoints/index.js';
import type { AccountRecord } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';
import type { ErrorShape } from './errors.js';
import type { Exchange } from './exchange.js';
import type { ServiceInternals } from './internals.js';
import type { MockResult } from './respond.js';

/** Methods a route can answer; `ALL` is for the catch-all. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ALL';

/** What a resolver gets. */
export interface RouteContext<
  Params = Record<string, string>,
  Body = unknown,
  Query = Record<string, string>,
> {
  request: Request;
  /**
   * The base URL the request was sent to (the standalone server's `--public-url`, when it has one): every absolute
   * URL an answer hands out (an upload URL, a page's `url`) starts with it, so it names the address the caller used.
   */
  baseUrl: string;
  /** The account the API key belongs to. */
  account: AccountRecord;
  /** `production` for a live key, `sandbox` for a sandbox key. */
  environment: 'sandbox' | 'production';
  params: Params;
  /** The query, validated by the row's query schema; without one, the first value of each parameter. */
  query: Query;
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
  mock: ServiceInternals;
}

/**
 * A resolver: a plain function of the context. It returns a result, or a `Response` for the rare non-JSON
 * answer (never cached for idempotency), and throws `MockApiError` for errors.
 */
export type Resolver<Params = Record<string, string>, Body = unknown, Query = Record<string, string>> = (
  ctx: RouteContext<Params, Body, Query>,
) => MockResult | Response | Promise<MockResult | Response>;

/** Route options. */
export interface RouteOptions<Schema extends z.ZodMiniType | undefined> {
  /**
   * The schema the mock parses the body with instead of the row's, for an endpoint whose service answers a
   * specific error where the row's schema would answer a validation 400.
   */
  bodySchema?: Schema;
}

/** A route with its types erased, as the pipeline stores it. */
export interface RouteDefinition {
  method: HttpMethod;
  /** The row's path in the router's form: `:name` parameters, as faults and the journal name it. */
  path: string;
  shape: ErrorShape;
  idempotent: boolean;
  bodySchema?: z.ZodMiniType;
  /** The endpoint table's row (its call; `CONTRACTS[operationId]` is the rest), and its key; absent on the catch-all. */
  endpoint?: Endpoint;
  operationId?: OperationId;
  resolve: Resolver;
}

type BodyOf<Schema> = Schema extends z.ZodMiniType ? z.infer<Schema> : undefined;
type RowBody<E> = E extends { body: infer Schema extends z.ZodMiniType } ? Schema : undefined;
type RowQuery<E> = E extends { query: infer Schema extends z.ZodMiniType }
  ? z.infer<Schema>
  : Record<string, string>;

// A row's operation ID, found from the row itself so a route names its endpoint once.
const OPERATION_OF = new Map<Endpoint, OperationId>(
  Object.entries(ENDPOINTS).map(([id, row]) => [row, id as OperationId]),
);

/** Declares the route of a row of `ENDPOINTS`; a result without a `status` answers the row's. */
export function route<E extends Endpoint, Schema extends z.ZodMiniType | undefined = RowBody<E>>(
  endpoint: E,
  resolve: Resolver<PathParams<E['path']>, BodyOf<Schema>, RowQuery<E>>,
  options: RouteOptions<Schema> = {},
): RouteDefinition {
  return {
    method: endpoint.method,
    path: colonPath(endpoint.path),
    shape: endpoint.shape ?? 'A',
    idempotent: endpoint.method !== 'GET',
    bodySchema: options.bodySchema ?? endpoint.body,
    endpoint,
    operationId: OPERATION_OF.get(endpoint),
    // The pipeline builds params from the path and the body from the schema, so the erased types hold.
    resolve: resolve as unknown as Resolver,
  };
}

/** The API's answer to a path under `path` (`/v2/*`) that no row names: after auth, never idempotent. */
export function catchAllRoute(path: string, resolve: Resolver): RouteDefinition {
  return { method: 'ALL', path, shape: 'A', idempotent: false, resolve };
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
    mock: ServiceInternals,
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
 * Per-service answers of single operations, keyed by operation ID: each gets the route's context and
 * answers, or returns nothing to let the route's own resolver answer.
 */
export type RouteOverrides = Map<OperationId, RouteOverride>;

/** One operation's override: an answer, or nothing to let the route's own resolver answer. */
export type RouteOverride = (
  ctx: RouteContext,
) => MockResult | Response | undefined | Promise<MockResult | Response | undefined>;
