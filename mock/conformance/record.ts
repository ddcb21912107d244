/**
 * The recording `fetch` a side's client sends through: every request is paced to the rate limit, and every
 * exchange is written down as conformance compares it (method, path template, status, the headers that matter,
 * the parsed body).
 */
import { modules } from '../handlers/index.js';
import { CONFORMANCE_HEADERS } from './compare.js';
import type { Pacer } from './pace.js';
import type { Observation, WireExchange } from './types.js';

interface Template {
  method: string;
  pattern: RegExp;
  path: string;
}

// The service's routes, longest first so `/v2/transactions/prefunded` wins over `/v2/transactions/:transactionId`
// only for its own method (POST); each `:name` matches one path segment.
const TEMPLATES: Template[] = modules
  .flatMap((m) => m.routes)
  .map((r) => ({
    method: r.method,
    path: r.path,
    pattern: new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`),
  }))
  .sort((a, b) => literalLength(b.path) - literalLength(a.path));

function literalLength(path: string): number {
  return path.replace(/:\w+/g, '').length;
}

/**
 * The route a request's path matches, with its parameters named (`/v2/users/:userId/kyc/status`); a path no
 * route serves is kept as it is.
 * @example
 * pathTemplate('GET', '/v2/users/usr_1/kyc/status'); // '/v2/users/:userId/kyc/status'
 */
export function pathTemplate(method: string, path: string): string {
  const same = TEMPLATES.find((t) => t.method === method && t.pattern.test(path));
  return (same ?? TEMPLATES.find((t) => t.pattern.test(path)))?.path ?? path;
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
 * @example
 * const log: Observation[] = [];
 * const fetcher = recordingFetch(globalThis.fetch, 'http://127.0.0.1:4010', createPacer(600), log);
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
