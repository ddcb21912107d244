/**
 * The shared request pipeline every API route runs through, in this order: fault injection → auth → IP
 * allow-list → rate limit → idempotency → body validation → resolver. Rate-limit headers go on every
 * answer given after auth. It reads the request's context (mock/engine/exchange.ts) and keeps its answer there,
 * so the same code serves in-process (`mock.fetch`, msw) and over `node:http`.
 */

import { MOCK_ONLY_HEADERS, withoutMockOnly } from '../contract/mock-only.js';
import { findAccountByKey } from '../engine/accounts.js';
import { MockApiError } from '../engine/errors.js';
import type { Exchange, ExchangeAnswer } from '../engine/exchange.js';
import { type Explanation, explainLine } from '../engine/explain.js';
import { type Answer, deleteHeader, headerOf, isNetworkError, reply, setHeader } from '../engine/reply.js';
import { errorBody, internalErrorBody, successBody } from '../engine/respond.js';
import type { RouteContext, RouteDefinition } from '../engine/route.js';
import type { MockRuntime } from '../engine/runtime.js';
import { nowIso } from '../engine/timers.js';
import { PIPELINE_REFUSALS, refusalExplanation } from '../observe/refusals.js';
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
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';
import type { AccountRecord } from '../state/accounts.js';
import type { MockState } from '../state/mock-state.js';
import { validateParsed, validateQuery } from './validate.js';

/** An answer of the pipeline: the response, and what it was built from for the exchange to keep. */
type Answered = Pick<ExchangeAnswer, 'response' | 'body' | 'text' | 'explanation' | 'replayed'> & {
  /** A success an idempotency key may keep: the body as sent (JSON text), parsed only when a key keeps it. */
  cache?: { status: number; text: string };
};

/**
 * What a resolver gets: a class, so its `request` is a getter on the prototype, made only for a resolver that
 * reads it (most read the exchange's values), while the context stays a plain, fast object.
 */
class ExchangeContext implements RouteContext {
  readonly params: Record<string, string>;
  readonly now: number;
  readonly nowIso: string;
  readonly state: MockState;
  readonly #exchange: Exchange;

  constructor(
    exchange: Exchange,
    readonly account: AccountRecord,
    readonly environment: RouteContext['environment'],
    readonly query: Record<string, string>,
    readonly body: unknown,
    readonly runtime: MockRuntime,
    readonly shape: RouteContext['shape'],
  ) {
    this.#exchange = exchange;
    this.params = exchange.params;
    this.state = runtime.state;
    this.now = this.state.clock.now;
    this.nowIso = nowIso(this.state);
  }

  get request(): Request {
    return this.#exchange.request;
  }
}

async function execute(
  rt: MockRuntime,
  def: RouteDefinition,
  exchange: Exchange,
  account: AccountRecord,
  environment: RouteContext['environment'],
): Promise<Answered> {
  try {
    const body = def.bodySchema ? validateParsed(def.bodySchema, exchange.json(), def.shape) : undefined;
    const querySchema = def.endpoint?.query;
    const query = querySchema ? validateQuery(querySchema, exchange.query, def.shape) : exchange.query;
    // Erased as the body is: the route typed it from the same row's schema.
    const ctx = new ExchangeContext(
      exchange,
      account,
      environment,
      query as Record<string, string>,
      body,
      rt,
      def.shape,
    );
    // A test's override of this operation (`mock.override`) answers first; nothing from it, the simulation does.
    const override = rt.overrides.size && def.operationId ? rt.overrides.get(def.operationId) : undefined;
    let result = (override && (await override(ctx))) ?? def.resolve(ctx);
    // Most resolvers answer at once: only a promise is awaited, which spares a turn of the queue.
    if (result instanceof Promise) result = await result;
    // A result always has `data`; checked so, the global `Response` stays unloaded (see isPlain).
    if (!('data' in result)) return { response: result };
    const status = result.status ?? def.endpoint?.status ?? 200;
    // Serialised once: the text detaches the body from live state (a later change must not alter a cached
    // replay) and drops undefined fields exactly as the wire does.
    // The strict profile answers exactly what the spec shows (mock/contract/mock-only.ts).
    const strict = rt.options.profile === 'strict';
    const shown = strict ? { ...result, data: withoutMockOnly(def.operationId, result.data) } : result;
    const envelope = successBody(shown);
    const text = JSON.stringify(envelope);
    const explanation = result.explain;
    const headers = explanation
      ? { ...result.headers, [EXPLAIN_HEADER]: explainLine(explanation) }
      : result.headers;
    const response = reply(status, text, headers);
    return { response, body: envelope, text, explanation, cache: { status, text } };
  } catch (error) {
    if (error instanceof MockApiError) {
      const body = errorBody(error.shape ?? def.shape, error.body);
      return explained(error.status, body, refusalExplanation(def.operationId, error));
    }
    const detail = error instanceof Error ? error.message : String(error);
    return explained(500, internalErrorBody(def.shape, detail), PIPELINE_REFUSALS.internal(detail));
  }
}

/**
 * The response header that says why the mock refused a request or which sandbox value chose its answer: one
 * line, `RULE: what happened (spec S). Change: what input or helper would change it` ({@link explainLine}).
 */
export const EXPLAIN_HEADER = 'X-Mock-Explain';

function explained(
  status: number,
  body: unknown,
  explanation: Explanation,
  headers: Record<string, string> = {},
): Answered {
  const text = JSON.stringify(body);
  const response = reply(status, text, { ...headers, [EXPLAIN_HEADER]: explainLine(explanation) });
  return { response, body, text, explanation };
}

async function withIdempotency(
  rt: MockRuntime,
  exchange: Exchange,
  scope: string,
  key: string,
  account: AccountRecord,
  run: () => Promise<Answered>,
  operationId: RouteDefinition['operationId'],
): Promise<Answered> {
  const { method } = exchange;
  const id = idempotencyId(account.id, method, scope, key);
  const fp = fingerprint(exchange.text, exchange.json());
  // A request with the same key still executing is waited for, then its outcome decides ours.
  for (;;) {
    const record = findIdempotency(rt.state, id);
    if (record) {
      if (record.fingerprint !== fp) {
        return explained(409, IDEMPOTENCY_CONFLICT_BODY, PIPELINE_REFUSALS.idempotencyConflict);
      }
      const { body } = record.response;
      const text = JSON.stringify(body);
      return { response: reply(200, text, { 'Idempotent-Replayed': 'true' }), body, text, replayed: true };
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
        { key, accountId: account.id, method, path: scope, fingerprint: fp },
        // Parsed back from the text sent: a copy apart from live state, as the key's replays must answer.
        { status: done.cache.status, body: JSON.parse(done.cache.text) },
        operationId,
      );
    }
    return done;
  });
  rt.inflight.set(id, running);
  try {
    return await running;
  } finally {
    rt.inflight.delete(id);
  }
}

async function answer(
  rt: MockRuntime,
  def: RouteDefinition,
  exchange: Exchange,
  key: string | null,
): Promise<Answered> {
  const state = rt.state;
  const found = findAccountByKey(rt, bearerKey(exchange.header('authorization')) ?? '');
  if (!found) return explained(401, UNAUTHORIZED_BODY, PIPELINE_REFUSALS.unauthorized);
  const { account, environment } = found;
  const ip = clientIp(exchange.header(SANDBOX_DEFAULTS.clientIpHeader));
  if (!ipAllowed(account, ip)) {
    const why = PIPELINE_REFUSALS.forbidden(ip);
    return explained(403, forbiddenBody(ip), why, peekRate(state, account, state.clock.now));
  }
  const rate = consumeRate(state, account, state.clock.now);
  if (!rate.allowed) {
    const why = PIPELINE_REFUSALS.rateLimited(account.limits.rateLimit, rate.retryAfter);
    return explained(429, rateLimitBody(rate.retryAfter), why, rate.headers);
  }

  const run = () => execute(rt, def, exchange, account, environment);
  const scope = endpointScope(def.path, exchange.params);
  const answered = key
    ? await withIdempotency(rt, exchange, scope, key, account, run, def.operationId)
    : await run();
  for (const name in rate.headers) setHeader(answered.response, name, rate.headers[name] ?? '');
  return answered;
}

/**
 * The endpoint a request resolved to, as idempotency scopes keys: the route's pattern with its (decoded)
 * parameters put back in canonical encoding, so `/init`, `/init/` and `%75sr_1` for `usr_1` are one scope.
 */
export function endpointScope(pattern: string, params: Record<string, string>): string {
  if (!pattern.includes(':')) return pattern;
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** The rate-limit headers of an answer, as numbers, when it has them. */
function rateLimitOf(answer: Answer): ExchangeAnswer['rateLimit'] {
  const limit = headerOf(answer, 'X-RateLimit-Limit');
  if (limit === null) return undefined;
  return {
    limit: Number(limit),
    remaining: Number(headerOf(answer, 'X-RateLimit-Remaining')),
    reset: Number(headerOf(answer, 'X-RateLimit-Reset')),
  };
}

/**
 * Serves one request for one API route: the whole pipeline, faults first; the exchange keeps the answer. Its
 * body is read and its `params` decoded. A `drop` fault answers a network error (`Response.error()`), which the
 * in-process adapter and the standalone server both turn into a lost connection.
 */
export async function serveRoute(rt: MockRuntime, def: RouteDefinition, exchange: Exchange): Promise<Answer> {
  exchange.route = def;
  const { http } = rt.state;
  const fault =
    http.faults.length || http.chaos
      ? takeFault(rt.state, exchange.method, def.path, exchange.path)
      : undefined;
  const key = def.idempotent ? exchange.header('idempotency-key') : null;
  const keep = (answered: Answered): Answer => {
    const { response } = answered;
    exchange.answer = {
      response,
      body: answered.body,
      text: answered.text,
      explanation: answered.explanation,
      replayed: answered.replayed,
      idempotencyKey: key ?? undefined,
      fault: fault?.kind,
      // Read before the strict profile drops them: the journal, a mock-only tool, keeps them.
      explain: headerOf(response, EXPLAIN_HEADER) ?? undefined,
      rateLimit: rateLimitOf(response),
    };
    return shown(rt, response);
  };
  // A replay skips the wait: it changes only real timing, never the state or the journal.
  if (fault?.kind === 'latency' && !rt.tap?.replaying)
    await new Promise((resolve) => setTimeout(resolve, fault.ms));
  if (fault?.kind === 'error') {
    const status = fault.status ?? 500;
    return keep(explained(status, faultBody(def.shape, status), PIPELINE_REFUSALS.fault(status)));
  }
  if (fault?.kind === 'drop') return keep({ response: Response.error() });
  const response = keep(await answer(rt, def, exchange, key));
  // The work is done and kept (idempotency included); only the answer is lost on the way back.
  return fault?.kind === 'drop-after-commit' ? Response.error() : response;
}

/**
 * Says how the mock's clock moves: `manual` (only when a test advances it) or `realtime`. A client that waits on
 * real time refuses to poll a `manual` one, which would never move for it (docs/mock-only.md).
 */
export const CLOCK_HEADER = 'X-Mock-Clock';

/**
 * The answer as the profile shows it: the strict profile sends no `X-Mock-Explain` (the journal, a mock-only
 * tool, still keeps the line) and the rate-limit headers on a 429 only (docs/mock-only.md). Both send
 * `X-Mock-Clock`: it changes nothing a client reads, and spares a test a wait that could never end.
 */
function shown(rt: MockRuntime, response: Answer): Answer {
  if (isNetworkError(response)) return response;
  setHeader(response, CLOCK_HEADER, rt.engineClock.realtime ? 'realtime' : 'manual');
  if (rt.options.profile !== 'strict') return response;
  deleteHeader(response, EXPLAIN_HEADER);
  for (const { name, addedOn } of MOCK_ONLY_HEADERS)
    if (addedOn(response.status)) deleteHeader(response, name);
  return response;
}
