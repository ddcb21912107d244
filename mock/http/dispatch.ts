/**
 * Dispatch: one fetch `Request` in, the service's `Response` out, with no HTTP library in between. It finds
 * the route with the compiled router, answers what routing itself decides (a malformed path 400, a wrong
 * method 405 with `Allow`, `HEAD` as `GET` without the body) and hands API routes to the pipeline. The
 * in-process MSW adapter and the standalone `node:http` server both call it.
 */

import { type Answer, Exchange } from '../engine/exchange.js';
import type { ServiceInternals } from '../engine/internals.js';
import { errorBody, json, withoutBody } from '../engine/respond.js';
import { serveRoute } from './pipeline.js';
import type { MockRouter } from './router.js';

/**
 * Answers a request for one service, or `undefined` when the URL is not one the service serves (another
 * origin, outside its base path, or a path no route names), so a caller can pass it on.
 */
export type Dispatch = (mock: ServiceInternals, request: Request) => Promise<Response | undefined>;

/**
 * Serves a request as one exchange on the service's stream (recorded unless `recorded` is false: a replay's
 * own), `undefined` when the URL is not under the base URL; what went back is its `answer`.
 */
export type ExchangeDispatch = (
  mock: ServiceInternals,
  request: Request,
  recorded?: boolean,
) => Promise<Exchange | undefined>;

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
export function malformedPath(path: string): Response {
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

/** Where the path relative to the base URL starts in a request URL, or -1 when the URL is not under it. */
function pathStart(url: string, baseUrl: string): number {
  if (!url.startsWith(baseUrl)) return -1;
  const next = url.charCodeAt(baseUrl.length);
  // '/' or the end of the path ('?', '#', end of string).
  if (next === 47) return baseUrl.length;
  return Number.isNaN(next) || next === 63 || next === 35 ? baseUrl.length : -1;
}

/** A dispatch function over a compiled router. */
export function createDispatch(router: MockRouter): Dispatch {
  const serve = createExchangeDispatch(router);
  return async (mock, request) => (await serve(mock, request))?.answer?.response;
}

/** An exchange-level dispatch function over a compiled router. */
export function createExchangeDispatch(router: MockRouter): ExchangeDispatch {
  // Not async: the route's own promise is awaited once, by the caller, without a turn for a wrapping one.
  type Answered = Response | Answer | Promise<Response | Answer> | undefined;
  const answer = (mock: ServiceInternals, exchange: Exchange): Answered => {
    const { method, path } = exchange;
    const found = router.find(method === 'HEAD' ? 'GET' : method, path);
    if (!found) return undefined;
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
    return endpoint.kind === 'api'
      ? serveRoute(mock, endpoint.def, exchange)
      : endpoint.def.serve(exchange.request, exchange.params, mock, exchange);
  };

  return async (mock, request, recorded = true) => {
    const url = request.url;
    const start = pathStart(url, mock.options.baseUrl);
    if (start < 0) return undefined;
    let end = url.length;
    for (let i = start; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 63 || c === 35) {
        end = i;
        break;
      }
    }
    const exchange = new Exchange(request, url.slice(start, end) || '/', recorded);
    // Emitted before anything is awaited, so the recorder keeps requests in the order they came.
    mock.stream.emit({ type: 'received', exchange });
    try {
      // Read once, before the service runs: every step and subscriber reads these bytes.
      if (exchange.hasBody) await exchange.bytes();
      const answered = await answer(mock, exchange);
      if (answered === undefined) return exchange;
      // Routing's own answers and raw routes answer a `Response`; the pipeline, an answer it describes.
      const done = answered instanceof Response ? { response: answered, status: answered.status } : answered;
      if (request.method === 'HEAD') done.response = await withoutBody(done.response, done.text);
      exchange.answer = done;
      return exchange;
    } finally {
      mock.stream.emit({ type: 'answered', exchange });
    }
  };
}
