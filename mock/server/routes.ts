/**
 * The standalone server's own routes, registered beside the service's in its one router (`dispatchWith`): the
 * health check, the test helpers (`/__mock`), the inspector and the pages (`/__pages`), and the OpenAPI
 * documents. The helpers and pages answer only what another site cannot send (`guard.ts`), with protective
 * headers.
 */
import { methodNotAllowed } from '../http/dispatch.js';
import type { LocalRequest, LocalRouteDefinition } from '../http/router.js';
import type { MockService } from '../service.js';
import { guardLocal, protect } from './guard.js';
import { HELPERS_PREFIX, serveHelper } from './helpers-api.js';
import { INSPECTOR_PATH, serveInspector } from './inspector/index.js';
import { MOCK_OPENAPI_PATH, OPENAPI_METHODS, OPENAPI_PATH, serveOpenApi } from './openapi.js';
import { PAGES_PREFIX, servePage } from './pages.js';

/**
 * Where a container's health check or a test harness's wait asks whether the server serves: it answers 200 once
 * the service is up (503 before, and while a replay runs) and touches no state, journal or recording.
 */
export const HEALTH_PATH = `${HELPERS_PREFIX}/health`;

function health(request: Request, { path }: LocalRequest): Response {
  return request.method === 'GET'
    ? Response.json({ success: true, data: { status: 'serving' } })
    : methodNotAllowed(request.method, path, OPENAPI_METHODS);
}

function openApi(request: Request, { path, base }: LocalRequest): Response {
  return request.method === 'GET'
    ? serveOpenApi(base, path)
    : methodNotAllowed(request.method, path, OPENAPI_METHODS);
}

/** `serve` behind the local-only guard, its answer with the protective headers. */
function guarded(
  serve: (request: Request, at: LocalRequest) => Response | Promise<Response>,
): LocalRouteDefinition['serve'] {
  return async (request, at) => {
    const context = { host: request.headers.get('host') ?? undefined, loopback: at.connection.loopback };
    return guardLocal(request, context) ?? protect(await serve(request, at));
  };
}

/** The server's routes over `service`. */
export function serverRoutes(service: MockService): LocalRouteDefinition[] {
  const helpers = guarded((request, { path }) => serveHelper(service, request, path));
  const pages = guarded((request, { path }) => servePage(service, request, path));
  return [
    { path: HEALTH_PATH, serve: health },
    { path: HELPERS_PREFIX, serve: helpers },
    { path: `${HELPERS_PREFIX}/**`, serve: helpers },
    { path: INSPECTOR_PATH, serve: guarded((request) => serveInspector(service, request)) },
    { path: `${PAGES_PREFIX}/**`, serve: pages },
    { path: OPENAPI_PATH, serve: openApi },
    { path: MOCK_OPENAPI_PATH, serve: openApi },
  ];
}
