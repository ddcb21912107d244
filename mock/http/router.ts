/**
 * The route table compiled once into a radix-tree router (rou3), so finding a request's route costs the
 * same however many endpoints there are. The router matches paths relative to the service's base URL,
 * case-sensitively, ignoring one trailing slash; it also knows which methods a path is served for, so a
 * wrong method is answered 405 with `Allow` rather than falling into the catch-all.
 */
import { addRoute, createRouter, findRoute, type RouterContext } from 'rou3';
import type { HttpMethod, RawRouteDefinition, RouteDefinition } from '../engine/route.js';

/**
 * What a service serves: API routes (through the pipeline), raw routes (answering themselves), and the
 * API's catch-all, matched only when nothing more specific is.
 */
export interface RouteTable {
  routes: readonly RouteDefinition[];
  rawRoutes?: readonly RawRouteDefinition[];
  fallback?: RouteDefinition;
}

/** A route found for a request. `params` are as they appear in the path (still percent-encoded). */
export interface RouteMatch {
  endpoint: { kind: 'api'; def: RouteDefinition } | { kind: 'raw'; def: RawRouteDefinition };
  params: Record<string, string>;
  /** True for the catch-all. */
  fallback: boolean;
}

/** The compiled table. */
export interface MockRouter {
  /** The route for `method` (upper case) and `path`, or undefined. */
  find(method: string, path: string): RouteMatch | undefined;
  /** The methods `path` is served for (HEAD beside GET), empty for a path no route names. */
  allowed(path: string): string[];
}

/** The methods a route can name; with HEAD, what `Allow` can list. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const routerMethod = (method: HttpMethod): string => (method === 'ALL' ? '' : method);

/** Compiles a route table. */
export function compileRoutes(table: RouteTable): MockRouter {
  const router: RouterContext<RouteMatch['endpoint']> = createRouter();
  for (const def of table.routes) addRoute(router, routerMethod(def.method), def.path, { kind: 'api', def });
  for (const def of table.rawRoutes ?? []) {
    addRoute(router, routerMethod(def.method), def.path, { kind: 'raw', def });
  }
  const fallback = table.fallback;
  if (fallback)
    addRoute(router, routerMethod(fallback.method), fallback.path, { kind: 'api', def: fallback });
  const isFallback = (endpoint: RouteMatch['endpoint']) =>
    endpoint.kind === 'api' && endpoint.def === fallback;

  const find = (method: string, path: string): RouteMatch | undefined => {
    const found = findRoute(router, method, path);
    if (!found) return undefined;
    return { endpoint: found.data, params: found.params ?? {}, fallback: isFallback(found.data) };
  };
  const allowed = (path: string): string[] => {
    const out: string[] = [];
    for (const method of METHODS) {
      const found = findRoute(router, method, path, { params: false });
      if (found && !isFallback(found.data)) out.push(method);
    }
    if (out.includes('GET')) out.splice(1, 0, 'HEAD');
    return out;
  };
  return { find, allowed };
}
