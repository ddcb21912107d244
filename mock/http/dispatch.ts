/**
 * Dispatch: one fetch `Request` in, the service's `Response` out, with no HTTP library in between. It finds
 * the route with the compiled router, answers what routing itself decides (a malformed path 400, a wrong
 * method 405 with `Allow`, `HEAD` as `GET` without the body), hands API routes to the pipeline and the
 * standalone server's local routes their request. `mock.fetch`, the MSW adapter and the standalone server all
 * call it.
 */

import { type Answer, Exchange } from '../engine/exchange.js';
import type { ServiceInternals } from '../engine/internals.js';
import { errorBody, json, withoutBody } from '../engine/respond.js';
import { serveRoute } from './pipeline.js';
import type { Connection, MockRouter, RouteMatch } from './router.js';

/** How a request reaches dispatch. */
export interface DispatchOptions {
  /** False for a replay's own requests, which the replay records itself. */
  recorded?: boolean;
  /**
   * The request came over the network (the standalone server): it is the service's whatever origin it names
   * (the `Host` the client used, behind a port mapping or a proxy), its path read under the base URL's path.
   */
  anyOrigin?: boolean;
  /** Where the absolute URLs of its answer point, when not at the address the request was sent to. */
  publicUrl?: string;
  /** The connection it came by, for a local route; a request with none is not a loopback one. */
  connection?: Connection;
}

/**
 * Serves a request as one exchange on the service's stream (what went back is its `answer`), or, for a local
 * route, as that route's `Response` outside the stream; `undefined` when the URL is not under the base URL.
 */
export type ExchangeDispatch = (
  mock: ServiceInternals,
  request: Request,
  options?: DispatchOptions,
) => Promise<Exchange | Response | undefined>;

/** The `405` answer for a path served for other methods. */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): Response {
  const body = errorBody('A', {
    error: 'Method Not Allowed',
    message: `${method} is not served on ${path}: use ${allow.join(', ')}`,
    code: 'METHOD_NOT_ALLOWED',
  });
  return json(405, body, { Allow: allow.join(', ') });
}

/** The `400` answer for a path whose percent-encoding does not decode. */
function malformedPath(path: string): Response {
  return json(
    400,
    errorBody('A', {
      error: 'Bad Request',
      message: `The path ${path} has a malformed percent-encoding: encode each path parameter with encodeURIComponent`,
      code: 'MALFORMED_PATH',
    }),
  );
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in params) {
    const value = params[name] ?? '';
    out[name] = value.includes('%') ? decodeURIComponent(value) : value;
  }
  return out;
}

/** Where the path relative to `base` starts in a request URL, or -1 when the URL is not under it. */
function pathStart(url: string, base: string): number {
  if (!url.startsWith(base)) return -1;
  const next = url.charCodeAt(base.length);
  // '/' or the end of the path ('?', '#', end of string).
  if (next === 47) return base.length;
  return Number.isNaN(next) || next === 63 || next === 35 ? base.length : -1;
}

/** The origin of an absolute URL (`scheme://host[:port]`), as it starts the URL. */
function originOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? url : url.slice(0, slash);
}

/**
 * The base a request URL is read under: the base URL, or for a request from the network the request's own
 * origin with the base URL's path.
 */
function baseOf(url: string, baseUrl: string, anyOrigin: boolean | undefined): string {
  if (!anyOrigin || url.startsWith(baseUrl)) return baseUrl;
  return originOf(url) + baseUrl.slice(originOf(baseUrl).length);
}

/**
 * A dispatch function over a compiled router: it answers a request for one service, or `undefined` when the URL is
 * not one the service serves (another origin, outside its base path, or a path no route names), so a caller can
 * pass it on.
 */
export function createDispatch(router: MockRouter) {
  const serve = createExchangeDispatch(router);
  return async (mock: ServiceInternals, request: Request): Promise<Response | undefined> => {
    const served = await serve(mock, request);
    return served instanceof Exchange ? served.answer?.response : served;
  };
}

const NO_CONNECTION: Connection = { loopback: false };

/** Serves a local route: `HEAD` as `GET`, without the body. */
async function serveLocal(
  serve: (request: Request) => Response | Promise<Response>,
  request: Request,
): Promise<Response> {
  if (request.method !== 'HEAD') return serve(request);
  return withoutBody(await serve(new Request(request, { method: 'GET' })));
}

/** An exchange-level dispatch function over a compiled router. */
export function createExchangeDispatch(router: MockRouter): ExchangeDispatch {
  // Not async: the route's own promise is awaited once, by the caller, without a turn for a wrapping one.
  type Answered = Response | Answer | Promise<Response | Answer> | undefined;
  const answer = (mock: ServiceInternals, exchange: Exchange, found: RouteMatch | undefined): Answered => {
    if (!found) return undefined;
    const { method, path } = exchange;
    if (found.fallback) {
      const allow = router.allowed(path);
      if (allow.length > 0) return methodNotAllowed(method, path, allow);
    }
    try {
      if (path.includes('%')) {
        decodeURIComponent(path);
        exchange.params = decodeParams(found.params);
      } else exchange.params = found.params;
    } catch {
      return malformedPath(path);
    }
    const { endpoint } = found;
    if (endpoint.kind === 'api') return serveRoute(mock, endpoint.def, exchange);
    if (endpoint.kind === 'raw') return endpoint.def.serve(exchange.request, exchange.params, mock, exchange);
    return undefined;
  };

  return async (mock, request, options = {}) => {
    const url = request.url;
    const base = baseOf(url, mock.options.baseUrl, options.anyOrigin);
    const start = pathStart(url, base);
    if (start < 0) return undefined;
    let end = url.length;
    for (let i = start; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 63 || c === 35) {
        end = i;
        break;
      }
    }
    const path = url.slice(start, end) || '/';
    const { method } = request;
    const found = router.find(method === 'HEAD' ? 'GET' : method, path);
    const publicBase = options.publicUrl ?? base;
    if (found?.endpoint.kind === 'local') {
      const { def } = found.endpoint;
      const at = { path, base: publicBase, connection: options.connection ?? NO_CONNECTION };
      return serveLocal((read) => def.serve(read, at), request);
    }
    const exchange = new Exchange(request, path, options.recorded ?? true, base, publicBase);
    // Emitted before anything is awaited, so the recorder keeps requests in the order they came.
    mock.stream.emit({ type: 'received', exchange });
    try {
      // Read once, before the service runs: every step and subscriber reads these bytes.
      if (exchange.hasBody) await exchange.bytes();
      const answered = await answer(mock, exchange, found);
      if (answered === undefined) return exchange;
      // Routing's own answers and raw routes answer a `Response`; the pipeline, an answer it describes.
      const done = answered instanceof Response ? { response: answered, status: answered.status } : answered;
      if (method === 'HEAD') done.response = await withoutBody(done.response, done.text);
      exchange.answer = done;
      return exchange;
    } finally {
      mock.stream.emit({ type: 'answered', exchange });
    }
  };
}
