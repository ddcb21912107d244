/**
 * The recording `fetch` a side's client sends through: every request is paced to the rate limit, and every
 * exchange is written down as conformance compares it (method, path template, status, the headers that matter,
 * the parsed body).
 */

import { compileRoutes } from '../http/router.js';
import { modules } from '../routes/index.js';
import { CONFORMANCE_HEADERS } from './compare.js';
import type { Pacer } from './pace.js';
import type { Observation, WireExchange } from './types.js';

// The service's own routes, matched by the router the mock serves them with.
const ROUTES = compileRoutes({ routes: modules.flatMap((m) => m.routes) });
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The route a request's path matches, with its parameters named (`/v2/users/:userId/kyc/status`); a path no
 * route serves is kept as it is.
 */
export function pathTemplate(method: string, path: string): string {
  // A method the path is not served for still names the route (a 405 is compared under it).
  const found = [method, ...METHODS].map((m) => ROUTES.find(m, path)).find((match) => match !== undefined);
  return found?.endpoint.def.path ?? path;
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A `fetch` that paces each request with `pacer`, sends it with `send`, and appends the exchange to `log`.
 * A request outside `baseUrl` is refused (it would leave the target).
 */
export function recordingFetch(
  send: typeof fetch,
  baseUrl: string,
  pacer: Pacer,
  log: Observation[],
): typeof fetch {
  const root = new URL(baseUrl);
  const prefix = root.pathname.replace(/\/+$/, '');
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== root.origin || !url.pathname.startsWith(prefix)) {
      throw new TypeError(`conformance: ${request.method} ${url.href} is outside the target ${baseUrl}`);
    }
    await pacer.next();
    const response = await send(request);
    const headers: Record<string, string> = {};
    for (const name of CONFORMANCE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const path = pathTemplate(request.method, url.pathname.slice(prefix.length) || '/');
    const exchange: WireExchange = {
      kind: 'exchange',
      label: `${request.method} ${path}`,
      method: request.method,
      path,
      status: response.status,
      headers,
      body: await bodyOf(response.clone()),
    };
    log.push(exchange);
    return response;
  };
}
