// ky's request carries the real key; a partner's hook is given a masked view of it, of ky's options and of the
// errors that hold either, and a request a hook hands back is keyed again.
import type { BeforeRequestHook, BeforeRetryHook, Hooks, KyRequest, NormalizedOptions } from 'ky';
import { redact } from '../shared/redact.js';
import { HOOK_VIEW } from '../shared/sent-request.js';

/** A copy made entry by entry (`new Headers()` of a Request made from another reads its old ones too under msw). */
function copyOf(headers: Headers, key: (authorization: string) => string): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) copy.set(name, name === 'authorization' ? key(value) : value);
  return copy;
}

/**
 * A copy of ky's request whose `Authorization` is masked; the body stays readable in both. The request of a
 * `TimeoutError` was sent, its body read: its view has none, as a used body cannot be copied.
 */
function viewOf(request: Request): KyRequest {
  const view = request.bodyUsed
    ? new Request(request.url, { method: request.method, headers: request.headers })
    : request.clone();
  const authorization = view.headers.get('authorization');
  if (authorization !== null) view.headers.set('authorization', redact(authorization));
  return view as KyRequest;
}

const viewOptions = (options: NormalizedOptions): NormalizedOptions => ({
  ...options,
  headers: copyOf(new Headers(options.headers), redact),
});

/** ky's `HTTPError` and `TimeoutError` hold its request (and options): the hook gets them masked. */
function viewError<E>(error: E): E {
  const holder = error as { request?: unknown; options?: NormalizedOptions };
  if (holder.request instanceof Request) holder.request = viewOf(holder.request);
  if (holder.options) holder.options = viewOptions(holder.options);
  return error;
}

type Viewed = Request & { [HOOK_VIEW]?: Request };

/**
 * The partner's hooks in the form ky runs: each sees views, header edits it makes in place reach ky's request,
 * and a request it returns (or asks a retry with) is sent with `bearer`.
 */
export function viewedHooks(hooks: Hooks, bearer: string): Hooks {
  const shown = redact(bearer);
  /** A request a hook made: its copy from the URL (one made from it keeps its old headers under msw). */
  const keyed = async (request: Request): Promise<Request> => {
    const headers = copyOf(request.headers, (key) => (key === shown ? bearer : key));
    if (!headers.has('authorization')) headers.set('authorization', bearer);
    const { method, signal, redirect, credentials, keepalive } = request;
    const body = request.body === null ? null : await request.arrayBuffer();
    return new Request(request.url, { method, headers, body, signal, redirect, credentials, keepalive });
  };
  /** A hook's edits of the view's headers, made on ky's request: the masked key stays the real one. */
  const carryBack = (view: Request, request: Request): void => {
    for (const [name, value] of view.headers) {
      if (value !== shown && request.headers.get(name) !== value) request.headers.set(name, value);
    }
    for (const name of [...request.headers.keys()]) if (!view.headers.has(name)) request.headers.delete(name);
  };
  /** Runs the hooks of one kind in turn on `view`, as ky would: the first request or answer one returns ends it. */
  const run = async (each: Array<() => unknown>, view: Request, request: Request): Promise<unknown> => {
    for (const hook of each) {
      const result = await hook();
      if (result instanceof Request) {
        const sent: Viewed = await keyed(result);
        // Tracing finds the span its hook opened by the request its fetch is given.
        sent[HOOK_VIEW] = view;
        return sent;
      }
      if (result !== undefined) return result;
    }
    carryBack(view, request);
  };
  const viewed: Hooks = {};
  const { beforeRequest, beforeRetry, afterResponse, beforeError } = hooks;
  if (beforeRequest?.length) {
    viewed.beforeRequest = [
      (request, options, state) => {
        const view = viewOf(request);
        (request as Viewed)[HOOK_VIEW] = view;
        const masked = viewOptions(options);
        const calls = beforeRequest.map((hook) => () => hook(view, masked, state));
        return run(calls, view, request) as ReturnType<BeforeRequestHook>;
      },
    ];
  }
  if (beforeRetry?.length) {
    viewed.beforeRetry = [
      ({ request, options, error, retryCount }) => {
        const view = viewOf(request);
        const state = { request: view, options: viewOptions(options), error: viewError(error), retryCount };
        return run(
          beforeRetry.map((hook) => () => hook(state)),
          view,
          request,
        ) as ReturnType<BeforeRetryHook>;
      },
    ];
  }
  if (afterResponse?.length) {
    viewed.afterResponse = afterResponse.map((hook) => async (request, options, response, state) => {
      const result = await hook(viewOf(request), viewOptions(options), response, state);
      // `ky.retry({ request })`: the retry sends that request, keyed.
      const retry = result instanceof Response ? undefined : result?.options;
      if (retry?.request instanceof Request) retry.request = await keyed(retry.request);
      return result;
    });
  }
  if (beforeError?.length) {
    viewed.beforeError = beforeError.map((hook) => (error, state) => hook(viewError(error), state));
  }
  return viewed;
}
