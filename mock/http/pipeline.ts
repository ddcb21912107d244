/**
 * The shared request pipeline every API route runs through, in this order: fault injection → auth → IP
 * allow-list → rate limit → idempotency → body validation → resolver. Rate-limit headers go on every
 * answer given after auth. It works on fetch `Request`/`Response` only, so the same code serves in-process
 * (behind one MSW handler) and over `node:http`.
 */

import { withoutMockOnly } from '../contract/mock-only.js';
import { findAccountByKey } from '../engine/accounts.js';
import { MockApiError } from '../engine/errors.js';
import { type Explanation, explainLine, explanationOf, remember } from '../engine/explain.js';
import { capBody, type JournalRequest, journalOf } from '../engine/journal.js';
import { requestText } from '../engine/request-body.js';
import { errorBody, internalErrorBody, json, jsonText, sentText, successBody } from '../engine/respond.js';
import type { RouteContext, RouteDefinition } from '../engine/route.js';
import type { MockRuntime } from '../engine/runtime.js';
import { tapOf } from '../engine/taps.js';
import { nowIso } from '../engine/timers.js';
import { observed } from '../observe/answers.js';
import { PIPELINE_REFUSALS, refusalExplanation } from '../observe/refusals.js';
import { requestIds } from '../observe/request-ids.js';
import { bearerKey, clientIp, forbiddenBody, ipAllowed, UNAUTHORIZED_BODY } from '../policies/auth.js';
import { faultBody, takeFault } from '../policies/faults.js';
import {
  findIdempotency,
  fingerprint,
  IDEMPOTENCY_CONFLICT_BODY,
  idempotencyId,
  storeIdempotency,
} from '../policies/idempotency.js';
import { consumeRate, peekRate, rateLimitBody } from '../policies/rate-limit.js';
import type { AccountRecord } from '../state/accounts.js';
import { validateBody } from './validate.js';

interface Incoming {
  request: Request;
  params: Record<string, string>;
  /** Path relative to the base URL, for fault matching. */
  path: string;
  /** The endpoint the router resolved, for idempotency scope (see {@link endpointScope}). */
  scope: string;
  text: string;
}

interface Executed {
  response: Response;
  /** A success an idempotency key may keep: the body as sent (JSON text), parsed only when a key keeps it. */
  cache?: { status: number; text: string };
}

/**
 * The first value of each query parameter of a request URL. The URL is already serialised by the parser, so
 * its query parses as `URL#searchParams` would have it, without parsing the whole URL again.
 */
function queryOf(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  const start = url.indexOf('?');
  if (start < 0) return out;
  const end = url.indexOf('#', start);
  for (const [name, value] of new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end))) {
    out[name] ??= value;
  }
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
      query: queryOf(req.request.url),
      body,
      now: state.clock.now,
      nowIso: nowIso(state),
      state,
      shape: def.shape,
      runtime: rt,
    };
    // A test's override of this operation (`mock.override`) answers first; nothing from it, the simulation does.
    const override = rt.overrides.size && def.operationId ? rt.overrides.get(def.operationId) : undefined;
    const result = (override && (await override(ctx))) ?? (await def.resolve(ctx));
    if (result instanceof Response) return { response: result };
    const status = result.status ?? def.endpoint?.status ?? 200;
    // Serialised once: the text detaches the body from live state (a later change must not alter a cached
    // replay) and drops undefined fields exactly as the wire does.
    // The strict profile answers exactly what the spec shows (mock/contract/mock-only.ts).
    const strict = rt.options.profile === 'strict';
    const shown = strict ? { ...result, data: withoutMockOnly(def.operationId, result.data) } : result;
    const text = JSON.stringify(successBody(shown));
    const headers = result.explain
      ? { ...result.headers, [EXPLAIN_HEADER]: explainLine(result.explain) }
      : result.headers;
    const response = jsonText(status, text, headers);
    if (result.explain) remember(response, result.explain);
    return { response, cache: { status, text } };
  } catch (error) {
    if (error instanceof MockApiError) {
      const body = errorBody(error.shape ?? def.shape, error.body);
      return { response: explained(error.status, body, refusalExplanation(def.operationId, error)) };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return {
      response: explained(500, internalErrorBody(def.shape, detail), PIPELINE_REFUSALS.internal(detail)),
    };
  }
}

/**
 * The response header that says why the mock refused a request or which sandbox value chose its answer: one
 * line, `RULE: what happened (spec S). Change: what input or helper would change it` ({@link explainLine}).
 */
export const EXPLAIN_HEADER = 'X-Mock-Explain';

function explained(status: number, body: unknown, why: Explanation, headers: Record<string, string> = {}) {
  return remember(json(status, body, { ...headers, [EXPLAIN_HEADER]: explainLine(why) }), why);
}

async function withIdempotency(
  rt: MockRuntime,
  req: Incoming,
  key: string,
  account: AccountRecord,
  run: () => Promise<Executed>,
  operationId: RouteDefinition['operationId'],
): Promise<Response> {
  const id = idempotencyId(account.id, req.request.method, req.scope, key);
  const fp = fingerprint(req.text);
  // A request with the same key still executing is waited for, then its outcome decides ours.
  for (;;) {
    const record = findIdempotency(rt.state, id);
    if (record) {
      if (record.fingerprint !== fp) {
        return explained(409, IDEMPOTENCY_CONFLICT_BODY, PIPELINE_REFUSALS.idempotencyConflict);
      }
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
        { key, accountId: account.id, method: req.request.method, path: req.scope, fingerprint: fp },
        { status: done.cache.status, body: JSON.parse(done.cache.text) },
        operationId,
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
  if (!found) {
    return explained(401, UNAUTHORIZED_BODY, PIPELINE_REFUSALS.unauthorized);
  }
  const { account, environment } = found;
  const ip = clientIp(req.request);
  if (!ipAllowed(account, ip)) {
    const why = PIPELINE_REFUSALS.forbidden(ip);
    return explained(403, forbiddenBody(ip), why, peekRate(state, account, state.clock.now));
  }
  const rate = consumeRate(state, account, state.clock.now);
  if (!rate.allowed) {
    const why = PIPELINE_REFUSALS.rateLimited(account.limits.rateLimit, rate.retryAfter);
    return explained(429, rateLimitBody(rate.retryAfter), why, rate.headers);
  }

  const run = () => execute(rt, def, req, account, environment);
  const key = def.idempotent ? req.request.headers.get('idempotency-key') : null;
  const response = key
    ? await withIdempotency(rt, req, key, account, run, def.operationId)
    : (await run()).response;
  for (const [name, value] of Object.entries(rate.headers)) response.headers.set(name, value);
  return response;
}

/**
 * The endpoint a request resolved to, as idempotency scopes keys: the route's pattern with its (decoded)
 * parameters put back in canonical encoding, so `/init`, `/init/` and `%75sr_1` for `usr_1` are one scope.
 */
export function endpointScope(pattern: string, params: Record<string, string>): string {
  if (!pattern.includes(':')) return pattern;
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Serves one request for one API route: the whole pipeline, faults first. `params` are decoded, `path` is
 * relative to the base URL. A `drop` fault answers a network error (`Response.error()`), which the
 * in-process adapter and the standalone server both turn into a lost connection.
 */
export async function serveRoute(
  rt: MockRuntime,
  def: RouteDefinition,
  request: Request,
  params: Record<string, string>,
  path: string,
): Promise<Response> {
  const { http } = rt.state;
  const fault =
    http.faults.length || http.chaos ? takeFault(rt.state, request.method, def.path, path) : undefined;
  const journalled = (response: Response): Response => {
    journalRequest(rt, def, request, params, path, response, fault?.kind);
    return shown(rt, response);
  };
  // A replay skips the wait: it changes only real timing, never the state or the journal.
  if (fault?.kind === 'latency' && !tapOf(rt)?.replaying)
    await new Promise((resolve) => setTimeout(resolve, fault.ms));
  if (fault?.kind === 'error') {
    const status = fault.status ?? 500;
    return journalled(explained(status, faultBody(def.shape, status), PIPELINE_REFUSALS.fault(status)));
  }
  if (fault?.kind === 'drop') return journalled(Response.error());
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await requestText(request);
  const scope = endpointScope(def.path, params);
  const response = observed(def, request, await answer(rt, def, { request, params, path, scope, text }));
  journalRequest(rt, def, request, params, path, response, fault?.kind, text);
  // The work is done and kept (idempotency included); only the answer is lost on the way back.
  return fault?.kind === 'drop-after-commit' ? Response.error() : shown(rt, response);
}

/** Spec 8 shows the rate-limit headers on a 429 only; the mock sends them on every answer. */
const RATE_HEADER_NAMES = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * The answer as the profile shows it: the strict profile sends no `X-Mock-Explain` (the journal, a mock-only
 * tool, still keeps the line) and the rate-limit headers on a 429 only (docs/mock-only.md).
 */
function shown(rt: MockRuntime, response: Response): Response {
  if (rt.options.profile !== 'strict' || response.type === 'error') return response;
  response.headers.delete(EXPLAIN_HEADER);
  if (response.status !== 429) for (const name of RATE_HEADER_NAMES) response.headers.delete(name);
  return response;
}

/** The request in the journal, read back from what the pipeline answered. */
function journalRequest(
  rt: MockRuntime,
  def: RouteDefinition,
  request: Request,
  params: Record<string, string>,
  path: string,
  response: Response,
  fault: string | undefined,
  text = '',
): void {
  const state = rt.state;
  const journal = journalOf(state);
  if (!journal) return;
  const sent = capBody(text);
  const answered = capBody(sentText(response) ?? '');
  const query = request.url.indexOf('?');
  const headers = response.headers;
  const limit = headers.get('X-RateLimit-Limit');
  const key = def.idempotent ? request.headers.get('idempotency-key') : null;
  journal.record<JournalRequest>(state, {
    type: 'request',
    method: request.method,
    path,
    route: def.path,
    status: response.status,
    idempotencyKey: key ?? undefined,
    replayed: key ? headers.get('Idempotent-Replayed') === 'true' : undefined,
    rateLimit:
      limit === null
        ? undefined
        : {
            limit: Number(limit),
            remaining: Number(headers.get('X-RateLimit-Remaining')),
            reset: Number(headers.get('X-RateLimit-Reset')),
          },
    fault,
    explain: headers.get(EXPLAIN_HEADER) ?? undefined,
    explanation: explanationOf(response),
    ...requestIds(state, params, sent, answered),
    // The bodies and query, so the inspector can show the exchange and repeat it (`copy as curl`).
    query: query < 0 ? undefined : request.url.slice(query).split('#')[0],
    requestBody: text ? sent.text : undefined,
    requestBodyCut: sent.cut || undefined,
    responseBody: answered.text || undefined,
    responseBodyCut: answered.cut || undefined,
  });
}
