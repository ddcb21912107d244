// ky's request carries the real key; a partner's hook is given a masked view of it, of ky's options and of the
// errors that hold either, and a request a hook hands back is keyed again.
import type { Hooks, KyRequest, NormalizedOptions } from 'ky';
import { redact } from '../shared/redact.js';
import { HOOK_VIEW } from '../shared/sent-request.js';

/** A copy, made entry by entry: `new Headers(headers)` of a Request made from another reads the old ones too under msw. */
function copyOf(headers: Headers, authorization: (value: string | null) => string | null): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) if (name !== 'authorization') copy.set(name, value);
  const key = authorization(headers.get('authorization'));
  if (key !== null) copy.set('authorization', key);
  return copy;
}

const masked = (value: string | null): string | null => (value === null ? null : redact(value));

/** A copy of ky's request whose `Authorization` is masked; the body stays readable in both. */
function viewOf(request: Request): KyRequest {
  const view = request.clone();
  const authorization = view.headers.get('authorization');
  if (authorization !== null) view.headers.set('authorization', redact(authorization));
  return view as KyRequest;
}

const viewOptions = (options: NormalizedOptions): NormalizedOptions => ({
  ...options,
  headers: copyOf(new Headers(options.headers), masked),
});

/** ky's `HTTPError` and `TimeoutError` hold its request (and options): the hook gets them masked. */
function viewError<E>(error: E): E {
  const holder = error as { request?: unknown; options?: unknown };
  if (holder.request instanceof Request) holder.request = viewOf(holder.request);
  const options = holder.options as NormalizedOptions | undefined;
  if (options?.headers instanceof Headers) holder.options = viewOptions(options);
  return error;
}

/**
 * The partner's hooks in the form ky runs: each sees views, header edits it makes in place reach ky's request,
 * and a request it returns (or asks a retry with) is sent with `bearer`.
 */
export function viewedHooks(hooks: Hooks, bearer: string): Hooks {
  const shown = redact(bearer);
  /** A request a hook made: its copy from the URL (one made from it keeps its old headers under msw). */
  const keyed = async (request: Request): Promise<Request> => {
    const headers = copyOf(request.headers, (key) => (key === null || key === shown ? bearer : key));
    const { method, signal, redirect, credentials, keepalive } = request;
    const body = request.body === null ? null : await request.arrayBuffer();
    return new Request(request.url, { method, headers, body, signal, redirect, credentials, keepalive });
  };
  /** A hook's edits of the view's headers, made on ky's request: the masked key stays the real one. */
  const carryBack = (view: Request, request: Request): void => {
    for (const [name, value] of view.headers) {
      if (request.headers.get(name) !== value && !(name === 'authorization' && value === shown)) {
        request.headers.set(name, value);
      }
    }
    for (const name of [...request.headers.keys()]) if (!view.headers.has(name)) request.headers.delete(name);
  };
  const viewed: Hooks = {};
  const { beforeRequest, beforeRetry, afterResponse, beforeError } = hooks;
  if (beforeRequest?.length) {
    viewed.beforeRequest = [
      async (request, options, state) => {
        const view = viewOf(request);
        // Tracing finds the span its hook opened by the request its fetch is given.
        Object.defineProperty(request, HOOK_VIEW, { value: view, configurable: true });
        const shownOptions = viewOptions(options);
        for (const hook of beforeRequest) {
          const result = await hook(view, shownOptions, state);
          if (result instanceof Response) return result;
          if (result instanceof Request) {
            const sent = await keyed(result);
            Object.defineProperty(sent, HOOK_VIEW, { value: view });
            return sent;
          }
        }
        carryBack(view, request);
      },
    ];
  }
  if (beforeRetry?.length) {
    viewed.beforeRetry = [
      async ({ request, options, error, retryCount }) => {
        const state = {
          request: viewOf(request),
          options: viewOptions(options),
          error: viewError(error),
          retryCount,
        };
        for (const hook of beforeRetry) {
          const result = await hook(state);
          if (result instanceof Request) return keyed(result);
          if (result !== undefined) return result;
        }
        carryBack(state.request, request);
      },
    ];
  }
  if (afterResponse?.length) {
    viewed.afterResponse = afterResponse.map((hook) => async (request, options, response, state) => {
      const result = await hook(viewOf(request), viewOptions(options), response, state);
      // `ky.retry({ request })`: the retry sends that request, keyed.
      const retry = result !== undefined && !(result instanceof Response) ? result.options : undefined;
      if (result && retry?.request instanceof Request) {
        Object.assign(result, { options: { ...retry, request: await keyed(retry.request) } });
      }
      return result;
    });
  }
  if (beforeError?.length) {
    viewed.beforeError = beforeError.map((hook) => (error, state) => hook(viewError(error), state));
  }
  return viewed;
}
