/**
 * A module is one route file's contribution: its routes and the timer tasks they schedule. Listing a
 * module in `mock/routes/index.ts` is all it takes to add it to every service.
 */
import type { RawRouteDefinition, RouteDefinition } from './route.js';
import type { TaskDefinition } from './tasks.js';

/** Routes and tasks of one area. */
export interface MockModule {
  name: string;
  routes: RouteDefinition[];
  tasks?: TaskDefinition[];
  /**
   * Routes that are not part of the API (no key, no shared pipeline): the object storage behind presigned
   * upload URLs.
   */
  rawRoutes?: RawRouteDefinition[];
}

/** Declares a module (an identity function, for the types and the reader). */
export function defineModule(module: MockModule): MockModule {
  return module;
}
