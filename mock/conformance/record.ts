/**
 * The recording `fetch` a side's client sends through: every request is paced to the rate limit, sent (to the
 * target, with its time-out and transient retries), and written down as conformance compares it (method, path
 * template, status, the headers that matter, the parsed body).
 */

import { colonPath } from '../../src/endpoints/index.js';
import { type AttemptPolicy, sendWithRetries, TargetUnavailable } from './attempts.js';
import { endpointOf } from './contract.js';
import type { Pacer } from './pace.js';
import type { Observation, WireExchange } from './types.js';

/**
 * The headers conformance looks at (spec 7.6, 8 and the idempotency rules), lower-case, and the form each is
 * compared by.
 */
export const CONFORMANCE_HEADERS = [
  'content-type',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
] as const;

/**
 * The endpoint a request's path matches, with its parameters named (`/v2/users/:userId/kyc/status`); a path no
 * endpoint of the table has (an upload URL the service gave) keeps its first segment only, since the rest
 * names the run's own data.
 */
function pathTemplate(method: string, path: string): string {
  const found = endpointOf(method, path);
  if (found) return colonPath(found.path);
  const first = /^\/[^/]*/.exec(path)?.[0] ?? path;
  return first === path ? path : `${first}/…`;
}

/** How the target's side sends: its attempt policy, and whether the scenario is now checking a limit. */
export interface TargetSending {
  policy: AttemptPolicy;
  /** True while a 429 is the point of the request (it is answered, not retried). */
  limitExpected(): boolean;
  /** Told of a request the target stayed unavailable for, before the error reaches the scenario. */
  unavailable(error: TargetUnavailable): void;
}

/** What a recording fetch refuses to send: in a `read-only` scenario, a request that could change the target. */
export interface SendGuard {
  /** The side's key: a request with it (authenticated) is one the service could act on. */
  apiKey: string;
  /** The scenario's ID, for the error. */
  scenario: string;
}

function guard(request: Request, only: SendGuard | undefined): void {
  if (!only || request.method === 'GET' || request.method === 'HEAD') return;
  if (request.headers.get('authorization') !== `Bearer ${only.apiKey}`) return;
  // A read-only scenario may send a write only without a valid key (the service refuses it unread).
  throw new TypeError(
    `conformance: the read-only scenario ${only.scenario} sent ${request.method} ${new URL(request.url).pathname} with the account's key, which could change the target`,
  );
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
  target?: TargetSending,
  readOnly?: SendGuard,
): typeof fetch {
  const root = new URL(baseUrl);
  const prefix = root.pathname.replace(/\/+$/, '');
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== root.origin || !url.pathname.startsWith(prefix)) {
      throw new TypeError(`conformance: ${request.method} ${url.href} is outside the target ${baseUrl}`);
    }
    guard(request, readOnly);
    const label = `${request.method} ${url.pathname}`;
    await pacer.next();
    const response = target
      ? await sendWithRetries(send, request, target.policy, {
          label,
          limitExpected: target.limitExpected(),
        }).catch((error: unknown) => {
          if (error instanceof TargetUnavailable) target.unavailable(error);
          throw error;
        })
      : await send(request);
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
