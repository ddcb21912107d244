/**
 * Local means local: the test helpers (`/__mock`) and the pages (`/__pages`) answer only requests that a
 * web page on another site cannot make. A browser marks a cross-site request with `Origin` and
 * `Sec-Fetch-Site`; a page can still send a "simple" request without them being checked by CORS (a form
 * post of `text/plain`, an `<img>`), so state changes only through `POST` with a JSON body, which a browser
 * sends cross-site only after a CORS preflight this server never grants. On a loopback address the `Host`
 * must name a loopback host too, so a DNS name rebound to 127.0.0.1 does not make another site same-origin.
 */
import { HELPER_CONTRACT, type HelperSpec } from '../contract/helpers.js';
import { errorBody } from '../engine/respond.js';

/**
 * Helpers that only read (`reads: true` in the helper contract), and so may be called with `GET` (query string
 * as the argument); every other helper changes state and takes `POST` with a JSON body.
 */
export const READ_HELPERS: ReadonlySet<string> = new Set(
  Object.entries(HELPER_CONTRACT as Record<string, HelperSpec>)
    .filter(([, spec]) => spec.reads)
    .map(([name]) => name),
);

/** Headers every helper answer and page carries: never framed, never sniffed, never cached. */
export const PROTECTIVE_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
};

/** An answer in the spec's error shape A: the helpers', the pages' and the server's own refusals. */
export function refusal(
  status: number,
  error: string,
  message: string,
  fields: Record<string, unknown> = {},
  headers?: HeadersInit,
): Response {
  return Response.json(errorBody('A', { error, message, ...fields }), { status, headers });
}

const LOOPBACK_HOST = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/** Whether `address` (the address the server listens on) is a loopback one. */
export function isLoopback(address: string): boolean {
  return address === '::1' || address === 'localhost' || /^127(\.\d{1,3}){3}$/.test(address);
}

/**
 * Refuses a request to `/__mock` or `/__pages` that another site could have made; `undefined` lets it
 * through. `context`: the `Host` the client used, and whether the request arrived on a loopback interface.
 * (Which helpers take `GET` and what body a `POST` needs is `helperMethodRefusal`'s business.)
 */
export function guardLocal(
  request: Request,
  context: { host: string | undefined; loopback: boolean },
): Response | undefined {
  const host = context.host ?? '';
  if (context.loopback && !LOOPBACK_HOST.test(host)) {
    return refusal(
      403,
      'Forbidden',
      `The test helpers and pages answer only under a loopback host (localhost, 127.0.0.1), not ${host || 'no Host'}`,
      { code: 'NOT_LOCAL' },
    );
  }
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  const otherSite = site !== null && site !== 'same-origin' && site !== 'none';
  if (otherSite || (origin !== null && origin !== `http://${host}`)) {
    return refusal(
      403,
      'Forbidden',
      'The test helpers and pages refuse requests from other web sites (Origin / Sec-Fetch-Site)',
      { code: 'CROSS_SITE' },
    );
  }
  return undefined;
}

/**
 * Refuses a helper call by the wrong method or body type: a helper that changes state takes `POST` with
 * a JSON body (or no body at all), never `GET`; a read helper also takes `GET`.
 */
export function helperMethodRefusal(
  request: Request,
  helper: string,
  bodyBytes: number,
): Response | undefined {
  const reads = READ_HELPERS.has(helper);
  const allow = reads ? 'GET, HEAD, POST' : 'POST';
  if (request.method === 'GET' && reads) return undefined;
  if (request.method !== 'POST') {
    const why = reads ? '' : ': it changes state';
    return refusal(
      405,
      'Method Not Allowed',
      `Call the helper ${helper} with ${allow}${why}`,
      { code: 'METHOD_NOT_ALLOWED' },
      { allow },
    );
  }
  const type = request.headers.get('content-type');
  // A POST with nothing in it needs no type (curl -X POST .../reset); anything sent must say it is JSON.
  const json = type !== null && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type);
  if (!json && (type !== null || bodyBytes > 0)) {
    return refusal(
      415,
      'Unsupported Media Type',
      `A helper takes its argument as JSON: send Content-Type: application/json (got ${type ?? 'a body without a type'})`,
      { code: 'UNSUPPORTED_MEDIA_TYPE' },
    );
  }
  return undefined;
}

/** `response` with {@link PROTECTIVE_HEADERS} added (on a copy when its headers are immutable). */
export function protect(response: Response): Response {
  if (response.type === 'error') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(PROTECTIVE_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
