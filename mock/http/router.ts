/**
 * The route table compiled once into a radix-tree router (rou3), so finding a request's route costs the
 * same however many endpoints there are. The router matches paths relative to the service's base URL,
 * case-sensitively, ignoring one trailing slash; it also knows which methods a path is served for, so a
 * wrong method is answered 405 with `Allow` rather than falling into the catch-all.
 */
import { addRoute, createRouter, findRoute, type RouterContext } from 'rou3';
import type { HttpMethod, RawRouteDefinition, RouteDefinition } from '../engine/route.js';

/** What a local route knows of the connection a request came by, beyond the request. */
export interface Connection {
  /** Whether it arrived on a loopback interface (true for a local client even on a server bound to every one). */
  readonly loopback: boolean;
}

/**
 * A route of the standalone server's own (the test helpers, the pages, the inspector, the OpenAPI documents),
 * registered beside the service's by the server: answered outside the service's exchanges (neither recorded,
 * journalled nor rate-limited), for every method, a wrong one refused by the route itself. `HEAD` reaches it as
 * `GET`, and dispatch drops the body.
 */
export interface LocalRouteDefinition {
  /** The path in the router's form (`/__mock/**` for a prefix). */
  path: string;
  serve(request: Request, at: LocalRequest): Response | Promise<Response>;
}

/** Where a local route's request came: its path, the base its absolute URLs start with, its connection. */
export interface LocalRequest {
  /** The path under the base URL, without the query. */
  readonly path: string;
  /** As an exchange's `base`: the address the request was sent to, or the server's public URL. */
  readonly base: string;
  readonly connection: Connection;
}

/**
 * What a service serves: API routes (through the pipeline), raw routes (answering themselves), the API's
 * catch-all, matched only when nothing more specific is, and the standalone server's local routes.
 */
export interface RouteTable {
  routes: readonly RouteDefinition[];
  rawRoutes?: readonly RawRouteDefinition[];
  fallback?: RouteDefinition;
  localRoutes?: readonly LocalRouteDefinition[];
}

/** A route found for a request. `params` are as they appear in the path (still percent-encoded). */
export interface RouteMatch {
  endpoint:
    | { kind: 'api'; def: RouteDefinition }
    | { kind: 'raw'; def: RawRouteDefinition }
    | { kind: 'local'; def: LocalRouteDefinition };
  params: Record<string, string>;
  /** True for the catch-all. */
  fallback: boolean;
}

/** The compiled table: `find` the route for a method (upper case) and path, the methods `allowed` on a path. */
export type MockRouter = ReturnType<typeof compileRoutes>;

/** The methods a route can name; with HEAD, what `Allow` can list. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const routerMethod = (method: HttpMethod): string => (method === 'ALL' ? '' : method);

/** Compiles a route table. */
export function compileRoutes(table: RouteTable) {
  const router: RouterContext<RouteMatch['endpoint']> = createRouter();
  for (const def of table.routes) addRoute(router, routerMethod(def.method), def.path, { kind: 'api', def });
  for (const def of table.rawRoutes ?? []) {
    addRoute(router, routerMethod(def.method), def.path, { kind: 'raw', def });
  }
  for (const def of table.localRoutes ?? []) addRoute(router, '', def.path, { kind: 'local', def });
  const fallback = table.fallback;
  if (fallback)
    addRoute(router, routerMethod(fallback.method), fallback.path, { kind: 'api', def: fallback });
  const isFallback = (endpoint: RouteMatch['endpoint']) =>
    endpoint.kind === 'api' && endpoint.def === fallback;

  /** The route for `method` (upper case) and `path`, or undefined. */
  const find = (method: string, path: string): RouteMatch | undefined => {
    const found = findRoute(router, method, path);
    if (!found) return undefined;
    return { endpoint: found.data, params: found.params ?? {}, fallback: isFallback(found.data) };
  };
  /** The methods the API serves `path` for (HEAD beside GET), empty for a path no API or raw route names. */
  const allowed = (path: string): string[] => {
    const out: string[] = [];
    for (const method of METHODS) {
      const found = findRoute(router, method, path, { params: false });
      if (found && found.data.kind !== 'local' && !isFallback(found.data)) out.push(method);
    }
    if (out.includes('GET')) out.splice(1, 0, 'HEAD');
    return out;
  };
  return { find, allowed };
}
