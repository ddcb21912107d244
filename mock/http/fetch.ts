/**
 * `mock.fetch`: a WHATWG `fetch` answered by one simulation in-process, with no interception and no port. It
 * is what `mock.createClient()` uses, and what any client or HTTP library that takes a `fetch` can be given.
 */

import { PLAIN_FETCH, type PlainCall, type PlainFetch } from '../../src/shared/plain-fetch.js';

/** The shape of `fetch` (and of the client's `fetch` option), written out so it needs no DOM types. */
export type MockFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function aborted(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** True when `init` changes nothing of a Request but its signal (what the client passes for each attempt). */
function signalOnly(init: RequestInit | undefined): boolean {
  for (const key in init) if (key !== 'signal') return false;
  return true;
}

/** Runs `task` at the event loop's next turn; the returned function cancels it. */
function defer(task: () => void): () => void {
  // setImmediate costs a fifth of setTimeout where there is one (Node, Bun).
  if (typeof setImmediate === 'function') {
    const handle = setImmediate(task);
    return () => clearImmediate(handle);
  }
  const handle = setTimeout(task, 0);
  return () => clearTimeout(handle);
}

/** The client's plain call as the request the simulation reads. */
function incoming({ method, url, headers, body }: PlainCall): Request {
  return new Request(url, { method, headers, body });
}

/**
 * A `fetch` over `dispatch`. As a real `fetch` would: a network error (a `drop` fault) rejects with
 * `TypeError: fetch failed`, the request's `signal` aborts it, and a URL the service does not serve rejects
 * (it reaches no network: the in-process mock never leaves the process). It also takes the client's requests
 * as plain values ({@link PLAIN_FETCH}), so the client makes no fetch `Request` only for the mock to read.
 */
export function createMockFetch(
  baseUrl: string,
  dispatch: (request: Request) => Promise<Response | undefined>,
): MockFetch {
  const answer = async (request: Request, signal: AbortSignal): Promise<Response> => {
    if (signal.aborted) throw aborted(signal);
    const answered = dispatch(request);
    const response = await new Promise<Response | undefined>((resolve, reject) => {
      const onAbort = () => reject(aborted(signal));
      // Listening to a signal costs about 5 µs on Node 20, more than most answers take: an answer that comes
      // within this turn of the event loop is checked for an abort when it comes, and only one still pending at
      // the next turn listens (a latency fault, a test's slow override). Either way, an abort before the answer
      // rejects the call.
      let listening = false;
      const later = defer(() => {
        if (signal.aborted) onAbort();
        else {
          listening = true;
          signal.addEventListener('abort', onAbort, { once: true });
        }
      });
      const settle =
        <T>(to: (value: T) => void) =>
        (value: T) => {
          later();
          if (listening) signal.removeEventListener('abort', onAbort);
          if (signal.aborted) onAbort();
          else to(value);
        };
      answered.then(settle(resolve), settle(reject));
    });
    if (response === undefined) {
      throw new TypeError(
        `fetch failed: ${request.method} ${request.url} is not served by this mock (its base URL is ${baseUrl}); ` +
          'mock.fetch reaches no network',
      );
    }
    if (response.type === 'error')
      throw new TypeError('fetch failed', {
        cause: new Error('the mock dropped the connection (a drop fault)'),
      });
    return response;
  };
  // async, as fetch is: a request it cannot make (a bad URL) rejects rather than throws.
  const fetch: MockFetch = async (input, init) => {
    // A `Request` given with at most a signal is used as it is: fetch would only copy it, and a copy that
    // follows a signal costs more than the rest of the call.
    const asIs = input instanceof Request && signalOnly(init);
    const request = asIs ? input : new Request(input, init);
    return answer(request, (asIs ? init?.signal : undefined) ?? request.signal);
  };
  const plain: PlainFetch = (call) => answer(incoming(call), call.signal);
  // Not enumerable, so it is not listed with the function's own properties; a wrapper of `mock.fetch` is a plain
  // fetch, and is given `Request`s.
  return Object.defineProperty(fetch, PLAIN_FETCH, { value: plain });
}
