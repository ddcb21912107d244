/**
 * `mock.fetch`: a WHATWG `fetch` answered by one mock service in-process, with no interception and no port. It
 * is what `mock.createClient()` uses, and what any client or HTTP library that takes a `fetch` can be given.
 */

/** The shape of `fetch` (and of the client's `fetch` option), written out so it needs no DOM types. */
export type MockFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function aborted(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
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
  // async, as fetch is: a request it cannot make (a bad URL) rejects rather than throws.
  return async (input, init) => {
    const request = new Request(input, init);
    const { signal } = request;
    if (signal.aborted) throw aborted(signal);
    const response = await new Promise<Response | undefined>((resolve, reject) => {
      const onAbort = () => reject(aborted(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      dispatch(request)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
    if (response === undefined) {
      throw new TypeError(
        `fetch failed: ${request.method} ${request.url} is not served by this mock (its base URL is ${baseUrl}); ` +
          'mock.fetch reaches no network',
      );
    }
    if (response.type === 'error') {
      throw new TypeError('fetch failed', {
        cause: new Error('the mock dropped the connection (a drop fault)'),
      });
    }
    return response;
  };
}
