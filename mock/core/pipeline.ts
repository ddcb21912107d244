/**
 * The shared request pipeline every route runs through, in this order: fault injection → auth → IP
 * allow-list → rate limit → idempotency → body validation → resolver. Rate-limit headers go on every
 * answer given after auth.
 */
import { type HttpHandler, HttpResponse, http } from 'msw';
import type { AccountRecord } from '../state/accounts.js';
import { findAccountByKey } from './accounts.js';
import { bearerKey, clientIp, forbiddenBody, ipAllowed, UNAUTHORIZED_BODY } from './auth.js';
import { MockApiError } from './errors.js';
import { faultBody, takeFault } from './faults.js';
import {
  findIdempotency,
  fingerprint,
  IDEMPOTENCY_CONFLICT_BODY,
  idempotencyId,
  storeIdempotency,
} from './idempotency.js';
import { observed } from './observe.js';
import { consumeRate, peekRate, rateLimitBody } from './rate-limit.js';
import { errorBody, internalErrorBody, json, successBody } from './respond.js';
import type { RouteContext, RouteDefinition } from './route.js';
import type { MockRuntime } from './runtime.js';
import { nowIso } from './timers.js';
import { validateBody } from './validate.js';

interface Incoming {
  request: Request;
  params: Record<string, string>;
  /** Path relative to the base URL, for idempotency scope and fault matching. */
  path: string;
  text: string;
}

interface Executed {
  response: Response;
  /** Set for a success that an idempotency key may keep. */
  cache?: { status: number; body: unknown };
}

function stringParams(
  params: Record<string, string | readonly string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join('/');
  }
  return out;
}

function firstValues(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of search) out[name] ??= value;
  return out;
}

async function execute(
  rt: MockRuntime,
  def: RouteDefinition,
  req: Incoming,
  account: AccountRecord,
  environment: RouteContext['environment'],
): Promise<Executed> {
  const state = rt.state;
  try {
    const body = def.bodySchema ? validateBody(def.bodySchema, req.text, def.shape) : undefined;
    const ctx: RouteContext = {
      request: req.request,
      account,
      environment,
      params: req.params,
      query: firstValues(new URL(req.request.url).searchParams),
      body,
      now: state.clock.now,
      nowIso: nowIso(state),
      state,
      shape: def.shape,
      runtime: rt,
    };
    const result = await def.resolve(ctx);
    if (result instanceof Response) return { response: result };
    const status = result.status ?? 200;
    // A JSON round trip detaches the body from live state (a later change must not alter a cached replay)
    // and drops undefined fields exactly as the wire does.
    const wire: unknown = JSON.parse(JSON.stringify(successBody(result)));
    return { response: json(status, wire, result.headers), cache: { status, body: wire } };
  } catch (error) {
    if (error instanceof MockApiError) {
      return { response: json(error.status, errorBody(error.shape ?? def.shape, error.body)) };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return { response: json(500, internalErrorBody(def.shape, detail)) };
  }
}

async function withIdempotency(
  rt: MockRuntime,
  req: Incoming,
  key: string,
  account: AccountRecord,
  run: () => Promise<Executed>,
): Promise<Response> {
  const id = idempotencyId(account.id, req.request.method, req.path, key);
  const fp = fingerprint(req.text);
  // A request with the same key still executing is waited for, then its outcome decides ours.
  for (;;) {
    const record = findIdempotency(rt.state, id);
    if (record) {
      if (record.fingerprint !== fp) return json(409, IDEMPOTENCY_CONFLICT_BODY);
      return json(200, record.response.body, { 'Idempotent-Replayed': 'true' });
    }
    const pending = rt.inflight.get(id);
    if (!pending) break;
    await pending.catch(() => undefined);
  }
  const running = run().then((done) => {
    // Stored inside the promise the waiters await, so they find it when they wake.
    if (done.cache && done.cache.status >= 200 && done.cache.status < 300) {
      storeIdempotency(
        rt.state,
        id,
        { key, accountId: account.id, method: req.request.method, path: req.path, fingerprint: fp },
        done.cache,
      );
    }
    return done;
  });
  rt.inflight.set(id, running);
  try {
    return (await running).response;
  } finally {
    rt.inflight.delete(id);
  }
}

async function answer(rt: MockRuntime, def: RouteDefinition, req: Incoming): Promise<Response> {
  const state = rt.state;
  const found = findAccountByKey(state, bearerKey(req.request) ?? '');
  if (!found) return json(401, UNAUTHORIZED_BODY);
  const { account, environment } = found;
  const ip = clientIp(req.request);
  if (!ipAllowed(account, ip)) return json(403, forbiddenBody(ip), peekRate(state, account, state.clock.now));
  const rate = consumeRate(state, account, state.clock.now);
  if (!rate.allowed) return json(429, rateLimitBody(rate.retryAfter), rate.headers);

  const run = () => execute(rt, def, req, account, environment);
  const key = def.idempotent ? req.request.headers.get('idempotency-key') : null;
  const response = key ? await withIdempotency(rt, req, key, account, run) : (await run()).response;
  for (const [name, value] of Object.entries(rate.headers)) response.headers.set(name, value);
  return response;
}

/**
 * Serves one route for one service: an MSW handler for `baseUrl + path`, so the same list works under
 * `setupServer` and under `getResponse(handlers, request)` in the standalone server.
 * @example
 * const handlers = routes.map((def) => toMswHandler(def, runtime));
 */
export function toMswHandler(def: RouteDefinition, rt: MockRuntime): HttpHandler {
  const basePath = new URL(rt.options.baseUrl).pathname.replace(/\/$/, '');
  const method =
    def.method === 'ALL' ? 'all' : (def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete');
  return http[method](`${rt.options.baseUrl}${def.path}`, async ({ request, params }) => {
    const path = new URL(request.url).pathname.slice(basePath.length) || '/';
    const fault = takeFault(rt.state, request.method, def.path, path);
    if (fault?.kind === 'latency') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'error') return json(fault.status ?? 500, faultBody(def.shape, fault.status ?? 500));
    if (fault?.kind === 'drop') return HttpResponse.error();
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const response = observed(
      def,
      request,
      await answer(rt, def, { request, params: stringParams(params), path, text }),
    );
    // The work is done and kept (idempotency included); only the answer is lost on the way back.
    return fault?.kind === 'drop-after-commit' ? HttpResponse.error() : response;
  });
}
