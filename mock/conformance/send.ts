/**
 * How a run sends on one side: through the package's own client (`PayoutClient`: its time-out, its retries of a
 * time-out, network error, 408, 429 or 5xx, an `Idempotency-Key` on every POST, PUT, PATCH and DELETE), every
 * exchange recorded by the client's `fetch` as conformance compares it. A retried attempt's record is replaced
 * by the next attempt's, so only the answer the client ended with is compared; one that stayed a failure is
 * {@link TargetUnavailable}, never a difference.
 */
import type { Hooks } from 'ky';
import { realClock } from '../../src/core/clock.js';
import type { HttpMethod } from '../../src/core/types.js';
import { type ClientClock, PayoutClient } from '../../src/index.js';
import { hookViewOf } from '../../src/shared/sent-request.js';
import { objectOf } from '../state/records.js';
import { pathTemplate } from './contract.js';
import { TargetUnavailable } from './errors.js';
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

/** How the target's client tries each request: the client's options, and where each retry is said. */
export interface SendPolicy {
  /** Milliseconds one attempt may take (the client's `timeout`). */
  timeoutMs: number;
  /** The client's `maxRetries`. */
  retries: number;
  /** Scales every wait between attempts (1: the client's own; 0 retries at once). */
  backoff: number;
  progress: (line: string) => void;
}

/** The client's own: a 30 s attempt, 2 retries, its waits. */
export const DEFAULT_POLICY: SendPolicy = { timeoutMs: 30_000, retries: 2, backoff: 1, progress: () => {} };

/** The longest wait a 429 may ask for, as the client's `maxRetryAfter` default. */
const MAX_RETRY_AFTER = 60_000;

/** One side's sending, shared by every client the run makes for it. */
export interface Sending {
  /** The un-recorded transport (the target's `fetch`, or the in-process mock's). */
  send: typeof fetch;
  baseUrl: string;
  pacer: Pacer;
  /** The target's policy; the reference sends each request once. */
  policy: SendPolicy | undefined;
  clock: ClientClock | undefined;
  /** The upload URLs the side's answers handed out: followed wherever they point, as a partner's code does. */
  uploads: Set<string>;
  /** The request the side last ended on a failure for, while no later attempt of it succeeded. */
  failed: TargetUnavailable | undefined;
  /** Every request sent (each attempt, the helpers' and an upload URL's included), and how many to the helpers. */
  sent: { requests: number; helpers: number };
}

/** The options of {@link sideClient}. */
export interface ClientPlan {
  apiKey: string;
  /** Where each exchange is written; none for the run's own reads (the account, the helpers). */
  log?: Observation[];
  /** Paced to the rate limit (the helpers are not the API). */
  paced: boolean;
  /** True while a 429 is the point of the request: answered, not retried. */
  atLimit?: () => boolean;
  /** The `read-only` scenario the client sends for: it refuses a request that could change the target. */
  readOnly?: string;
}

/** The fetch option a raw request carries to the recording `fetch`: whether to send it without a key, and its answer. */
const RAW = 'conformanceRaw';
interface RawCall {
  withoutKey: boolean;
  answer?: Response;
}

/** Whether the client retries an answer of `status` as a transient failure. */
export const retried = (status: number) => status === 408 || status === 429 || status >= 500;

/** fetch's `TypeError: fetch failed` hides the reason (`ECONNREFUSED`...) in its cause. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** An answer's body: parsed JSON, the text when it is not JSON, `undefined` when empty. */
export function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function guard(request: Request, { readOnly, apiKey }: ClientPlan): void {
  if (!readOnly || request.method === 'GET' || request.method === 'HEAD') return;
  // A read-only scenario may send a write only without a valid key (the service refuses it unread); with the
  // side's key, the service could act on it.
  if (request.headers.get('authorization') !== `Bearer ${apiKey}`) return;
  throw new TypeError(
    `conformance: the read-only scenario ${readOnly} sent ${request.method} ${new URL(request.url).pathname} with the account's key, which could change the target`,
  );
}

/**
 * The client's clock for the target: each wait is the client's before a retry (scaled by the policy; tests retry
 * at once), said in the progress with the attempt that failed.
 */
function retryClock(clock: ClientClock, policy: SendPolicy, failed: () => string | undefined): ClientClock {
  return {
    now: clock.now,
    sleep: (ms, signal) => {
      const line = failed();
      if (line) policy.progress(line);
      return clock.sleep(ms * policy.backoff, signal);
    },
  };
}

/**
 * A client for one side, and the raw `fetch` over it (for what the client refuses to send): the package's
 * `PayoutClient` whose `fetch` paces, sends, reads each answer whole (under the attempt's time-out) and records
 * it; the retries, waits and idempotency keys are the client's.
 */
export function sideClient(sending: Sending, plan: ClientPlan) {
  const root = new URL(sending.baseUrl);
  const prefix = root.pathname.replace(/\/+$/, '');
  const { policy } = sending;
  // The call an attempt belongs to (ky's `context`, one per call), found by the view its hooks saw.
  const calls = new WeakMap<Request, { call: object; attempt: number }>();
  const recordedAt = new WeakMap<object, number>();
  const atLimit = plan.atLimit ?? (() => false);

  const hooks: Hooks = {
    beforeRequest: [
      // Paced before ky's time-out starts (a wait for the rate limit is no slow answer); a retry waits the client's.
      async (view, options, state) => {
        if (plan.paced && state.retryCount === 0) await sending.pacer.next();
        const raw = (options as { [RAW]?: RawCall })[RAW];
        if (raw?.withoutKey) view.headers.delete('authorization');
        calls.set(view, { call: options.context, attempt: state.retryCount });
      },
    ],
  };
  /** The attempt the client is about to retry, as the progress says it. */
  let retrying: string | undefined;

  /** Refuses what would leave the target (but an upload URL it handed out) or could change it in `read-only`. */
  const checked = (request: Request): URL => {
    const url = new URL(request.url);
    const off = url.origin !== root.origin || !url.pathname.startsWith(prefix);
    if (off && !sending.uploads.has(request.url))
      throw new TypeError(
        `conformance: ${request.method} ${url.href} is outside the target ${sending.baseUrl}`,
      );
    guard(request, plan);
    return url;
  };

  const recording: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = checked(request);
    const upload = sending.uploads.has(request.url);
    const seen = calls.get(hookViewOf(request));
    const path = upload
      ? '<upload URL>'
      : pathTemplate(request.method, url.pathname.slice(prefix.length) || '/');
    const label = `${request.method} ${upload ? path : url.pathname}`;
    if (plan.paced && !seen) await sending.pacer.next();
    const attempts = (seen?.attempt ?? 0) + 1;
    const failing = (what: string) => {
      retrying = policy && `  ${label} ${what}: retry ${attempts} of ${policy.retries}`;
      return new TargetUnavailable(label, attempts > 1 ? `${what} on each of ${attempts} attempts` : what);
    };
    const raw = (init as { [RAW]?: RawCall } | undefined)?.[RAW];
    let response: Response;
    let bytes: ArrayBuffer;
    sending.sent.requests += 1;
    if (url.pathname.startsWith(`${prefix}/__mock`)) sending.sent.helpers += 1;
    try {
      response = await sending.send(request, init);
      // Read here, under the attempt's time-out: a target that answers its head and stalls is stalled.
      bytes = await response.arrayBuffer();
    } catch (error) {
      if (raw) raw.answer = undefined;
      const timedOut = request.signal.aborted && policy;
      if (policy)
        sending.failed = failing(
          timedOut ? `gave no answer in ${policy.timeoutMs / 1000} s` : `failed (${causeOf(error)})`,
        );
      throw error;
    }
    const answer = () =>
      new Response(bytes.byteLength === 0 ? null : bytes.slice(0), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    const body = parsed(new TextDecoder().decode(bytes));
    const uploadUrl = objectOf(objectOf(body)?.data)?.uploadUrl;
    if (typeof uploadUrl === 'string') sending.uploads.add(uploadUrl);
    const transient = retried(response.status) && !(response.status === 429 && atLimit());
    if (policy && transient) sending.failed = failing(`answered ${response.status}`);
    else if (sending.failed?.request === label) [sending.failed, retrying] = [undefined, undefined];
    if (raw) raw.answer = answer();
    if (plan.log) {
      const exchange: WireExchange = {
        kind: 'exchange',
        label: `${request.method} ${path}`,
        method: request.method,
        path,
        status: response.status,
        headers: Object.fromEntries(
          CONFORMANCE_HEADERS.flatMap((name) => {
            const value = response.headers.get(name);
            return value === null ? [] : [[name, value]];
          }),
        ),
        body,
      };
      // A retry's answer stands where its first attempt's was: only the answer the client ended with is compared.
      const at = seen && recordedAt.get(seen.call);
      if (seen && at !== undefined) plan.log[at] = exchange;
      else {
        if (seen) recordedAt.set(seen.call, plan.log.length);
        plan.log.push(exchange);
      }
    }
    return answer();
  };

  const options = {
    apiKey: plan.apiKey,
    baseUrl: sending.baseUrl,
    fetch: recording,
    logLevel: 'off' as const,
    hooks,
    ...(policy
      ? {
          timeout: policy.timeoutMs,
          maxRetries: policy.retries,
          maxRetryAfter: MAX_RETRY_AFTER,
          // Every attempt and every wait fits; the time-out and the retries are what give up.
          deadline: (policy.retries + 1) * (policy.timeoutMs + MAX_RETRY_AFTER),
          clock: retryClock(sending.clock ?? realClock, policy, () => retrying),
        }
      : { maxRetries: 0, ...(sending.clock ? { clock: sending.clock } : {}) }),
  };
  const client = new PayoutClient(options);
  // A 429 that is the point of the request (a limit being checked) is answered: the client waits for none.
  const once = client.withOptions({ maxRetryAfter: 0 });
  const current = () => (atLimit() ? once : client);

  const rawFetch: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    // An upload URL is not the API: sent as the client's document upload sends it, with no key.
    if (sending.uploads.has(request.url)) return recording(request);
    checked(request);
    const text = await request.text();
    const body = parsed(text);
    // Only a text that is not JSON parses to itself.
    if (body === text)
      throw new TypeError(
        `conformance: ${request.method} ${url.pathname}: a raw request's body must be JSON`,
      );
    const headers = Object.fromEntries([...request.headers].filter(([name]) => name !== 'content-length'));
    const raw: RawCall = { withoutKey: !request.headers.has('authorization') };
    const call = current().request(
      {
        method: request.method as HttpMethod,
        path: url.pathname.slice(prefix.length) || '/',
        query: Object.fromEntries(url.searchParams),
        body,
      },
      { headers, fetchOptions: { [RAW]: raw } },
    );
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (raw.answer) return raw.answer;
    throw sending.failed ?? error;
  };

  return {
    get client() {
      return current();
    },
    fetch: rawFetch,
  };
}
