/**
 * The shared request pipeline every API route runs through, in this order: fault injection → auth → IP
 * allow-list → rate limit → idempotency → body validation → resolver. Rate-limit headers go on every
 * answer given after auth. It reads the request's context (mock/engine/exchange.ts) and keeps its answer there,
 * so the same code serves in-process (`mock.fetch`, msw) and over `node:http`.
 */

import { describeError } from '../../src/shared/describe-error.js';
import { MOCK_ONLY_HEADERS, withoutMockOnly } from '../contract/mock-only.js';
import { findAccountByKey } from '../engine/accounts.js';
import { MockApiError } from '../engine/errors.js';
import type { Answer, Exchange } from '../engine/exchange.js';
import { type Explanation, explainLine } from '../engine/explain.js';
import type { ServiceInternals } from '../engine/internals.js';
import { errorBody, internalErrorBody, successBody } from '../engine/respond.js';
import type { RouteContext, RouteDefinition } from '../engine/route.js';
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

/** The rate-limit headers an answer carries (none before the key is known). */
type RateHeaders = Record<string, string> | undefined;

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
    readonly mock: ServiceInternals,
    readonly shape: RouteContext['shape'],
  ) {
    this.#exchange = exchange;
    this.params = exchange.params;
    this.state = mock.state;
    this.now = this.state.clock.now;
    this.nowIso = nowIso(this.state);
  }

  get request(): Request {
    return this.#exchange.request;
  }

  get baseUrl(): string {
    return this.#exchange.base;
  }
}

async function execute(
  mock: ServiceInternals,
  def: RouteDefinition,
  exchange: Exchange,
  account: AccountRecord,
  environment: RouteContext['environment'],
  rate: RateHeaders,
): Promise<Answer> {
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
      mock,
      def.shape,
    );
    // A test's override of this operation (`mock.override`) answers first; nothing from it, the mock's own route does.
    const override = mock.overrides.size && def.operationId ? mock.overrides.get(def.operationId) : undefined;
    let result = (override && (await override(ctx))) ?? def.resolve(ctx);
    // Most resolvers answer at once: only a promise is awaited, which spares a turn of the queue.
    if (result instanceof Promise) result = await result;
    if (result instanceof Response) return responseAnswer(mock, result, rate);
    const status = result.status ?? def.endpoint?.status ?? 200;
    // The strict profile answers exactly what the spec shows (mock/contract/mock-only.ts).
    const strict = mock.options.profile === 'strict';
    const shownResult = strict ? { ...result, data: withoutMockOnly(def.operationId, result.data) } : result;
    return jsonAnswer(mock, status, successBody(shownResult), rate, result.explain, result.headers);
  } catch (error) {
    if (error instanceof MockApiError) {
      const body = errorBody(error.shape ?? def.shape, error.body);
      return jsonAnswer(mock, error.status, body, rate, refusalExplanation(def.operationId, error));
    }
    const detail = describeError(error);
    const body = internalErrorBody(def.shape, detail);
    return jsonAnswer(mock, 500, body, rate, PIPELINE_REFUSALS.internal(detail));
  }
}

/**
 * The response header that says why the mock refused a request or which sandbox value chose its answer: one
 * line, `RULE: what happened (spec S). Change: what input or helper would change it` ({@link explainLine}).
 */
export const EXPLAIN_HEADER = 'X-Mock-Explain';

/**
 * Says how the mock's clock moves: `manual` (only when a test advances it) or `realtime`. A client that waits on
 * real time refuses to poll a `manual` one, which would never move for it (docs/mock-only.md).
 */
const CLOCK_HEADER = 'X-Mock-Clock';

/**
 * Sets an answer's headers as the profile shows them (`set` with `undefined` removes one): the strict profile
 * sends no `X-Mock-Explain` (the journal, a mock-only tool, still keeps the line) and the rate-limit headers on a
 * 429 only (docs/mock-only.md). Both send `X-Mock-Clock`: it changes nothing a client reads, and spares a test a
 * wait that could never end.
 */
function show(mock: ServiceInternals, status: number, set: (name: string, value?: string) => void): void {
  set(CLOCK_HEADER, mock.engineClock.realtime ? 'realtime' : 'manual');
  if (mock.options.profile !== 'strict') return;
  set(EXPLAIN_HEADER);
  for (const { name, addedOn } of MOCK_ONLY_HEADERS) if (addedOn(status)) set(name);
}

/** The rate-limit headers' values as numbers, when there are some. */
function rateLimitOf(rate: RateHeaders): Answer['rateLimit'] {
  if (rate === undefined) return undefined;
  return {
    limit: Number(rate['X-RateLimit-Limit']),
    remaining: Number(rate['X-RateLimit-Remaining']),
    reset: Number(rate['X-RateLimit-Reset']),
  };
}

/**
 * A JSON answer: its headers gathered first (`headers` in any case, the rate-limit ones, the explanation's line)
 * and shown as the profile shows them, then the `Response`, made once. The body is serialised once: the text
 * detaches it from live state (a later change must not alter a cached replay) and drops undefined fields
 * exactly as the wire does.
 */
function jsonAnswer(
  mock: ServiceInternals,
  status: number,
  body: unknown,
  rate: RateHeaders,
  explanation?: Explanation,
  headers?: Record<string, string>,
): Answer {
  const text = JSON.stringify(body);
  const all: Record<string, string> = { 'content-type': 'application/json' };
  for (const name in headers) all[name.toLowerCase()] = headers[name] ?? '';
  for (const name in rate) all[name.toLowerCase()] = rate[name] ?? '';
  const explain = explanation && explainLine(explanation);
  if (explain !== undefined) all[EXPLAIN_HEADER.toLowerCase()] = explain;
  show(mock, status, (name, value) => {
    if (value === undefined) delete all[name.toLowerCase()];
    else all[name.toLowerCase()] = value;
  });
  return {
    response: new Response(text, { status, headers: all }),
    status,
    body,
    text,
    explanation,
    // Taken before the strict profile drops them: the journal, a mock-only tool, keeps them.
    explain,
    rateLimit: rateLimitOf(rate),
    idempotencyKey: undefined,
    replayed: undefined,
    fault: undefined,
  };
}

/** A resolver's own `Response` (a non-JSON answer) with the pipeline's headers, as the profile shows them. */
function responseAnswer(mock: ServiceInternals, response: Response, rate: RateHeaders): Answer {
  const { headers, status } = response;
  for (const name in rate) headers.set(name, rate[name] ?? '');
  show(mock, status, (name, value) =>
    value === undefined ? headers.delete(name) : headers.set(name, value),
  );
  return { response, status, rateLimit: rateLimitOf(rate) };
}

async function withIdempotency(
  mock: ServiceInternals,
  exchange: Exchange,
  scope: string,
  key: string,
  account: AccountRecord,
  rate: RateHeaders,
  run: () => Promise<Answer>,
  operationId: RouteDefinition['operationId'],
): Promise<Answer> {
  const { method } = exchange;
  const id = idempotencyId(account.id, method, scope, key);
  const fp = fingerprint(exchange.text, exchange.json());
  // A request with the same key still executing is waited for, then its outcome decides ours.
  for (;;) {
    const record = findIdempotency(mock.state, id);
    if (record) {
      if (record.fingerprint !== fp) {
        return jsonAnswer(mock, 409, IDEMPOTENCY_CONFLICT_BODY, rate, PIPELINE_REFUSALS.idempotencyConflict);
      }
      const replay = jsonAnswer(mock, 200, record.response.body, rate, undefined, REPLAYED);
      replay.replayed = true;
      return replay;
    }
    const pending = mock.inflight.get(id);
    if (!pending) break;
    await pending.catch(() => undefined);
  }
  const running = run().then((done) => {
    // Stored inside the promise the waiters await, so they find it when they wake. Only a success built from a
    // result has a text and a 2xx status: an error body or a resolver's own `Response` is never kept.
    if (done.text !== undefined && done.status >= 200 && done.status < 300) {
      storeIdempotency(
        mock.state,
        id,
        { key, accountId: account.id, method, path: scope, fingerprint: fp },
        // Parsed back from the text sent: a copy apart from live state, as the key's replays must answer.
        { status: done.status, body: JSON.parse(done.text) },
        operationId,
      );
    }
    return done;
  });
  mock.inflight.set(id, running);
  try {
    return await running;
  } finally {
    mock.inflight.delete(id);
  }
}

/** The header of an answer given from an idempotency key's stored one. */
const REPLAYED = { 'Idempotent-Replayed': 'true' };

async function answer(
  mock: ServiceInternals,
  def: RouteDefinition,
  exchange: Exchange,
  key: string | null,
): Promise<Answer> {
  const state = mock.state;
  const found = findAccountByKey(mock, bearerKey(exchange.header('authorization')) ?? '');
  if (!found) return jsonAnswer(mock, 401, UNAUTHORIZED_BODY, undefined, PIPELINE_REFUSALS.unauthorized);
  const { account, environment } = found;
  const ip = clientIp(exchange.header(SANDBOX_DEFAULTS.clientIpHeader));
  if (!ipAllowed(account, ip)) {
    const why = PIPELINE_REFUSALS.forbidden(ip);
    return jsonAnswer(mock, 403, forbiddenBody(ip), peekRate(state, account, state.clock.now), why);
  }
  const rate = consumeRate(state, account, state.clock.now);
  if (!rate.allowed) {
    const why = PIPELINE_REFUSALS.rateLimited(account.limits.rateLimit, rate.retryAfter);
    return jsonAnswer(mock, 429, rateLimitBody(rate.retryAfter), rate.headers, why);
  }

  const run = () => execute(mock, def, exchange, account, environment, rate.headers);
  const scope = endpointScope(def.path, exchange.params);
  return key
    ? withIdempotency(mock, exchange, scope, key, account, rate.headers, run, def.operationId)
    : run();
}

/**
 * The endpoint a request resolved to, as idempotency scopes keys: the route's pattern with its (decoded)
 * parameters put back in canonical encoding, so `/init`, `/init/` and `%75sr_1` for `usr_1` are one scope.
 */
function endpointScope(pattern: string, params: Record<string, string>): string {
  if (!pattern.includes(':')) return pattern;
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Serves one request for one API route: the whole pipeline, faults first. Its body is read and its `params`
 * decoded. A `drop` fault answers a network error (`Response.error()`), which the in-process adapter and the
 * standalone server both turn into a lost connection.
 */
export async function serveRoute(
  mock: ServiceInternals,
  def: RouteDefinition,
  exchange: Exchange,
): Promise<Answer> {
  exchange.route = def;
  const { http } = mock.state;
  const fault =
    http.faults.length || http.chaos
      ? takeFault(mock.state, exchange.method, def.path, exchange.path)
      : undefined;
  const key = def.idempotent ? exchange.header('idempotency-key') : null;
  // A replay skips the wait: it changes only real timing, never the state or the journal.
  if (fault?.kind === 'latency' && !mock.tap?.replaying)
    await new Promise((resolve) => setTimeout(resolve, fault.ms));
  let done: Answer;
  if (fault?.kind === 'error') {
    const status = fault.status ?? 500;
    done = jsonAnswer(mock, status, faultBody(def.shape, status), undefined, PIPELINE_REFUSALS.fault(status));
  } else if (fault?.kind === 'drop') done = { response: Response.error(), status: 0 };
  else done = await answer(mock, def, exchange, key);
  done.idempotencyKey = key ?? undefined;
  done.fault = fault?.kind;
  // The work is done and kept (idempotency included); only the answer is lost on the way back.
  if (fault?.kind === 'drop-after-commit') done.response = Response.error();
  return done;
}
