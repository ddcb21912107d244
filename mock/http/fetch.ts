/**
 * `mock.fetch`: a WHATWG `fetch` answered by one simulation in-process, with no interception and no port. It
 * is what `mock.createClient()` uses, and what any client or HTTP library that takes a `fetch` can be given.
 */

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

/**
 * A `fetch` over `dispatch`. As a real `fetch` would: a network error (a `drop` fault) rejects with
 * `TypeError: fetch failed`, the request's `signal` aborts it, and a URL the service does not serve rejects
 * (it reaches no network: the in-process mock never leaves the process).
 */
export function createMockFetch(
  baseUrl: string,
  dispatch: (request: Request) => Promise<Response | undefined>,
): MockFetch {
  return async (input, init) => {
    // A `Request` given with at most a signal is used as it is (what the client sends): fetch would only copy it,
    // and a copy that follows a signal costs more than the rest of the call.
    const asIs = input instanceof Request && signalOnly(init);
    const request = asIs ? input : new Request(input, init);
    const signal = (asIs ? init?.signal : undefined) ?? request.signal;
    if (signal.aborted) throw aborted(signal);
    const answer = dispatch(request);
    const response = await new Promise<Response | undefined>((resolve, reject) => {
      const onAbort = () => reject(aborted(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
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
}
